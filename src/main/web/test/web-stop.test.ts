/**
 * Stopping web mode the ways people and service managers do: Ctrl-C reaches the whole process
 * group (web mode and its relay child at once), and a second signal may follow before the
 * first has finished. Each way ends with the process gone, no child left behind, the relay
 * child not started again, both ports free, and the next start on them working.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { binPath } from '../../test-support/child-process.js';

interface WebProcess {
  proc: ChildProcess;
  port: number;
  origin: string;
  code: string;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: WebProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const w of started.splice(0)) {
    try {
      process.kill(-w.proc.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** `node bin/web.mjs` in a process group of its own, as a terminal starts it. */
function startWeb(dataDir: string, port = 0): Promise<WebProcess> {
  const proc = spawn(process.execPath, [binPath('web'), '--port', String(port), '--data', dataDir, '--no-open'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web mode did not start: ${err}`)), 60_000);
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^open (http:\/\/127\.0\.0\.1:(\d+))\/#code=(\S+)$/m.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const w = { proc, origin: m[1], port: Number(m[2]), code: m[3], stdout: () => out + err, exited };
      started.push(w);
      resolve(w);
    });
    void exited.then(() => reject(new Error(`web mode exited before it was ready: ${err}`)));
  });
}

/** A tab's session: the launch code exchanged for the secret, then the contract over the socket. */
async function session(w: WebProcess): Promise<(name: string, args: unknown) => Promise<{ ok: boolean }>> {
  const res = await fetch(`${w.origin}/session`, {
    method: 'POST',
    headers: { origin: w.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ code: w.code }),
  });
  const { secret } = (await res.json()) as { secret: string };
  const ws = new WebSocket(`ws://127.0.0.1:${w.port}/ipc`, ['messenger.v1', `secret.${secret}`], {
    headers: { origin: w.origin },
  });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  let seq = 0;
  return (name, args) =>
    new Promise((resolve) => {
      const id = ++seq;
      ws.on('message', (d) => {
        const f = JSON.parse(String(d)) as { type: string; id: number; result: { ok: boolean } };
        if (f.type === 'result' && f.id === id) resolve(f.result);
      });
      ws.send(JSON.stringify({ type: 'call', id, name, args }));
    });
}

/** The pids still in the process group (Linux: /proc). */
function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
        // the fields after the command name: state, ppid, pgrp
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function until<T>(what: string, probe: () => T | Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Web mode with a wallet on its built-in relay, a tab connected: the relay child runs and the sync loop holds a pull. */
async function runningWithRelay(dataDir: string, port = 0): Promise<{ w: WebProcess; relayPort: number }> {
  const w = await startWeb(dataDir, port);
  const call = await session(w);
  if (!existsSync(join(dataDir, 'profile', 'vault.json')))
    expect((await call('wallet.create', { passphrase: '' })).ok).toBe(true);
  expect((await call('relay.connect', { mode: 'local' })).ok).toBe(true);
  const settings = JSON.parse(readFileSync(join(dataDir, 'app-settings.json'), 'utf8')) as {
    localRelay: { port: number };
  };
  expect(groupMembers(w.proc.pid!).length).toBeGreaterThan(1);
  return { w, relayPort: settings.localRelay.port };
}

describe('stopping web mode', () => {
  for (const [title, pause] of [
    ['a second signal right after the first', 0],
    ['a second signal once the relay child has gone', 700],
  ] as const) {
    it(`SIGINT to the whole group, then SIGTERM (${title}): stops, nothing left, ports free, starts again`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'web-stop-'));
      dirs.push(dataDir);
      const { w, relayPort } = await runningWithRelay(dataDir);
      const pgid = w.proc.pid!;

      process.kill(-pgid, 'SIGINT');
      await new Promise((r) => setTimeout(r, pause));
      try {
        process.kill(-pgid, 'SIGTERM');
      } catch {
        // the group is gone already: that is a clean stop too
      }
      const end = await w.exited;
      expect(end).toEqual({ code: 0, signal: null });
      expect(w.stdout()).toContain('web: stopped');
      await until(
        'the process group',
        () => groupMembers(pgid),
        (left) => left.length === 0,
      );
      expect(existsSync(join(dataDir, 'app.lock'))).toBe(false);
      expect(await portFree(w.port)).toBe(true);
      expect(await portFree(relayPort)).toBe(true);

      // The next start takes the same ports again.
      const again = await runningWithRelay(dataDir, w.port);
      expect(again.w.port).toBe(w.port);
      expect(again.relayPort).toBe(relayPort);
      again.w.proc.kill('SIGTERM');
      expect(await again.w.exited).toEqual({ code: 0, signal: null });
    }, 120_000);
  }
});
