/**
 * `npm run web -- --new-link` end to end: web mode runs as users start it (bin/web.mjs), a page
 * takes the session with the printed link, and a second command for the same data folder prints
 * a new link: the old session's socket is closed and its secret refused from then on, while the
 * new link buys a session of its own. The control file holding the token is the user's alone.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { binPath, runToEnd, startBuilt, type Child } from '../../test-support/child-process.js';
import { CONTROL_FILE } from '../web-control.js';

const dirs: string[] = [];
const children: Child[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function exchange(port: number, code: string): Promise<{ status: number; secret?: string }> {
  const origin = `http://127.0.0.1:${port}`;
  const r = await post(port, '/session', { origin, 'content-type': 'application/json' }, JSON.stringify({ code }));
  return { status: r.status, secret: r.status === 200 ? (JSON.parse(r.text) as { secret: string }).secret : undefined };
}

/** A socket with `secret`: the socket once open, else the HTTP status it was refused with. */
function connect(port: number, secret: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ipc`, ['messenger.v1', `secret.${secret}`], {
      headers: { origin: `http://127.0.0.1:${port}` },
    });
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

function newLinkCommand(dataDir: string) {
  return runToEnd(process.execPath, [binPath('web'), '--new-link', '--data', dataDir, '--no-open']);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!check()) throw new Error(`gave up waiting for ${what}`);
}

describe('web --new-link', () => {
  it('prints a new one-time link and ends the session of whoever used the old one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'web-new-link-'));
    dirs.push(dataDir);
    const web = await startBuilt(
      'web',
      ['--port', '0', '--data', dataDir, '--no-open'],
      /^open (http:\/\/127\.0\.0\.1:\d+\/#code=\S+)$/,
      120_000,
    );
    children.push(web);
    const first = new URL(web.ready);
    const port = Number(first.port);
    // the control file appears once the services (and the profile lock) are up
    const control = join(dataDir, CONTROL_FILE);
    await until(() => existsSync(control), 'the control file');
    expect(statSync(control).mode & 0o777).toBe(0o600);

    // someone takes the session with the first link
    const taken = await exchange(port, first.hash.slice('#code='.length));
    expect(taken.status).toBe(200);
    const old = await connect(port, taken.secret!);
    expect(old).toBeInstanceOf(WebSocket);
    const oldClosed = new Promise<number>((resolve) => (old as WebSocket).once('close', (code) => resolve(code)));

    const made = await newLinkCommand(dataDir);
    expect(made.code, made.stderr).toBe(0);
    const line = /^open (http:\/\/127\.0\.0\.1:(\d+)\/#code=([A-Za-z0-9_-]{43}))$/.exec(made.stdout.trim());
    expect(line).not.toBeNull();
    expect(Number(line![2])).toBe(port);
    expect(line![3]).not.toBe(first.hash.slice('#code='.length));

    // the old session is over: its socket closed, its secret refused, its code dead
    const stillOpen = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 10_000).unref());
    expect(await Promise.race([oldClosed, stillOpen])).toBe(4001);
    expect(await connect(port, taken.secret!)).toBe(401);
    expect((await exchange(port, first.hash.slice('#code='.length))).status).toBe(401);

    // the new link buys a session, once
    const mine = await exchange(port, line![3]);
    expect(mine.status).toBe(200);
    expect(mine.secret).not.toBe(taken.secret);
    const ws = await connect(port, mine.secret!);
    expect(ws).toBeInstanceOf(WebSocket);
    (ws as WebSocket).close();
    expect((await exchange(port, line![3])).status).toBe(410);

    // the control route takes only the file's token, and never a page's request
    expect((await post(port, '/control/new-link', { authorization: `Bearer ${'A'.repeat(43)}` })).status).toBe(401);
    expect((await post(port, '/control/new-link', {})).status).toBe(401);
    const token = (JSON.parse(readFileSync(control, 'utf8')) as { token: string }).token;
    expect(
      (await post(port, '/control/new-link', { authorization: `Bearer ${token}`, origin: `http://127.0.0.1:${port}` }))
        .status,
    ).toBe(403);
    // none of those ended the session
    expect(await connect(port, mine.secret!)).toBeInstanceOf(WebSocket);

    // once web mode stops, its control file goes and --new-link says no server runs
    await web.stop();
    expect(existsSync(control)).toBe(false);
    const none = await newLinkCommand(dataDir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no web-mode server is running');
  }, 180_000);
});
