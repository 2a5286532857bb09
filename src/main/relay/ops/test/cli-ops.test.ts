/**
 * The headless relay as an operator runs it (the built bin/relay.mjs, a real process): its log
 * on stdout in each format with the ready line first, SIGHUP reloading the config file, an
 * unknown key in the file refused with exit 2, and relative paths from INIT_CWD under npm.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs, startTs, type Child } from '../../../test-support/child-process.js';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const SLOW = 120_000;

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'relay-ops-cli-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(done(), what).toBe(true);
}

const json = (child: Child) => child.lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the relay process', () => {
  it(
    'with --log-format json writes only JSON lines, the ready line first, and reloads its file on SIGHUP',
    async () => {
      const dir = tempDir();
      const file = join(dir, 'relay.toml');
      writeFileSync(file, 'max-queued = 5\nrate-limit = 0\n');
      const relay = await startTs(
        CLI,
        ['--port', '0', '--data', join(dir, 'data'), '--config', file, '--log-format', 'json'],
        /"msg":"relay listening on ([^"]+)"/,
      );
      try {
        const first = JSON.parse(relay.lines[0]) as { url: string; msg: string; level: number };
        expect(first.msg).toBe(`relay listening on ${first.url}`);
        expect(first.url).toBe(relay.ready);
        expect((await fetch(`${relay.ready}/api/v1/nowhere?token=zqSECRETqz`)).status).toBe(404);
        await until(() => relay.lines.some((l) => l.includes('"msg":"request"')), 'a request line');
        const lines = json(relay);
        const msgs = lines.map((l) => l.msg);
        expect(msgs).toEqual(expect.arrayContaining(['database migrated', 'relay started', 'request']));
        expect(lines.find((l) => l.msg === 'relay started')?.configFile).toBe(file);
        expect(relay.lines.join('\n')).not.toContain('zqSECRETqz');

        writeFileSync(file, 'max-queued = 9\nrate-limit = 0\n');
        relay.proc.kill('SIGHUP');
        await until(() => relay.lines.some((l) => l.includes('config reloaded')), 'the reload line');
        expect(json(relay).find((l) => l.msg === 'config reloaded')?.changed).toEqual({
          maxQueued: { from: 5, to: 9 },
        });

        writeFileSync(file, 'max-queued = 9\nmaxqueued = 1\n');
        relay.proc.kill('SIGHUP');
        await until(() => relay.lines.some((l) => l.includes('config reload refused')), 'the refusal');
        expect(String(json(relay).find((l) => String(l.msg).includes('refused'))?.reason)).toContain('"maxqueued"');
        // still serving, on the values it had
        expect((await fetch(`${relay.ready}/readyz`)).status).toBe(200);
      } finally {
        const exit = await relay.stop();
        expect(exit.code).toBe(0);
      }
      expect(json(relay).map((l) => l.msg)).toContain('relay stopped');
    },
    SLOW,
  );

  it(
    'with --lan and --log-format json names the pin in the ready line and logs the certificate',
    async () => {
      const dir = tempDir();
      const relay = await startTs(
        CLI,
        ['--lan', '--host', '127.0.0.1', '--port', '0', '--data', dir, '--log-format', 'json'],
        /"msg":"relay listening on ([^"]+)"/,
      );
      try {
        const first = JSON.parse(relay.lines[0]) as {
          url: string;
          pin: string;
          pinnedPubkey: string;
          fingerprint256: string;
        };
        expect(first.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        expect(first.pin).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
        expect(first.pinnedPubkey).toMatch(/^sha256\/\/[A-Za-z0-9+/]{43}=$/);
        await until(
          () => relay.lines.some((l) => l.includes('TLS key and certificate created')),
          'the certificate line',
        );
        const created = json(relay).find((l) => l.msg === 'TLS key and certificate created');
        expect(created).toMatchObject({
          pin: first.pin,
          pinnedPubkey: first.pinnedPubkey,
          fingerprint256: first.fingerprint256,
          dataDir: dir,
        });
      } finally {
        expect((await relay.stop()).code).toBe(0);
      }
    },
    SLOW,
  );

  it(
    'without --log-format keeps the plain ready line first, then JSON; pretty is for people',
    async () => {
      const dir = tempDir();
      const plain = await startTs(CLI, ['--port', '0', '--data', join(dir, 'a')], /^relay listening on (\S+)$/);
      try {
        await until(() => plain.lines.some((l) => l.includes('relay started')), 'the start line');
        expect(plain.lines[0]).toBe(`relay listening on ${plain.ready}`);
        for (const line of plain.lines.slice(1)) expect(() => JSON.parse(line)).not.toThrow();
      } finally {
        await plain.stop();
      }
      const pretty = await startTs(
        CLI,
        ['--port', '0', '--data', join(dir, 'b'), '--log-format', 'pretty'],
        /^relay listening on (\S+)$/,
      );
      try {
        await until(() => pretty.lines.some((l) => l.includes('relay started')), 'the start line');
        expect(pretty.lines[0]).toBe(`relay listening on ${pretty.ready}`);
        const started = pretty.lines.find((l) => l.includes('relay started'))!;
        expect(started).toMatch(/INFO.*relay started/);
        expect(() => JSON.parse(started)).toThrow();
      } finally {
        await pretty.stop();
      }
    },
    SLOW,
  );

  it(
    'refuses an unknown key in the config file with exit 2, naming it',
    async () => {
      const file = join(tempDir(), 'relay.json');
      writeFileSync(file, JSON.stringify({ port: 0, 'rate-limits': 5 }));
      const r = await runTs(CLI, ['--config', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`relay: ${file}: unknown setting "rate-limits"`);
      expect(r.stdout).toBe('');
    },
    SLOW,
  );

  it(
    'under npm, puts a relative --data where the user stood (INIT_CWD), not in the package root',
    async () => {
      const stood = tempDir();
      const relay = await startTs(CLI, ['--port', '0', '--data', 'here'], /^relay listening on (\S+)$/, 60_000, {
        cwd: ROOT,
        env: { ...process.env, INIT_CWD: stood, npm_package_json: join(ROOT, 'package.json') },
      });
      try {
        expect(existsSync(join(stood, 'here', 'relay.db'))).toBe(true);
        expect(existsSync(join(ROOT, 'here'))).toBe(false);
      } finally {
        await relay.stop();
      }
    },
    SLOW,
  );
});
