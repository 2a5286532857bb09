/**
 * The headless relay as other tools drive it: a real child process (node + tsx loader),
 * real HTTP(S) on 127.0.0.1, a real data folder, operator commands beside the running relay.
 */
import { fork } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs, startTs } from '../../../test-support/child-process.js';
import { envelopeBodies } from '../../../test-support/sealed-like.js';
import { callJson, signIn } from '../../../test-support/sign-in.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const READY = /^relay listening on (\S+)$/;
const FINGERPRINT = /^TLS certificate SHA-256 fingerprint: ([0-9A-F]{2}(?::[0-9A-F]{2}){31})$/;

/** Each case starts real processes; on a loaded 2-core machine a start alone can take seconds. */
const SLOW = 120_000;

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'relay-cli-test-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function admin(dataDir: string, ...args: string[]) {
  return runTs(CLI, ['admin', '--data', dataDir, ...args]);
}

describe('relay CLI', () => {
  it(
    'serves on port 0, takes operator commands while running, and closes cleanly on SIGTERM',
    async () => {
      const data = join(tempDir(), 'nested', 'relay-data');
      const relay = await startTs(
        CLI,
        ['--host', '127.0.0.1', '--port', '0', '--data', data, '--rate-limit', '0'],
        READY,
      );
      let exit;
      try {
        expect(relay.lines[0]).toMatch(/^relay listening on http:\/\/127\.0\.0\.1:(\d+)$/);
        const base = relay.ready;
        expect(Number(new URL(base).port)).toBeGreaterThan(0);
        expect(existsSync(join(data, 'relay.db'))).toBe(true);

        const doc = await fetch(`${base}/openapi.json`);
        expect(doc.status).toBe(200);
        const spec = (await doc.json()) as { openapi: string };
        expect(spec.openapi).toBe('3.1.0');
        // the base URL (the sign-in message's URI) names the real port, not the 0 asked for
        const challenge = (await callJson('POST', `${base}/api/v1/auth/challenge`, null, {
          address: `0x${'ab'.repeat(20)}`,
        })) as { message: string };
        expect(challenge.message).toContain(`\nURI: ${base}\n`);

        const user = await signIn(base, 'cli test');
        const meBefore = (await callJson('GET', `${base}/api/v1/me`, user.apiKey)) as {
          entitlements: string[];
          verified: boolean;
        };
        expect(meBefore.entitlements).not.toContain('developer-api');

        const grant = await admin(data, 'grant', user.address, 'developer-api');
        // stderr holds only the audit line: what was done to whom, nothing else
        const audit = grant.stderr.trimEnd().split('\n');
        expect(audit).toHaveLength(1);
        expect(JSON.parse(audit[0])).toMatchObject({
          msg: 'admin action',
          command: 'grant',
          who: user.address,
          entitlement: 'developer-api',
          outcome: 'done',
        });
        expect(grant.code).toBe(0);
        // the running relay's next request sees the change
        const meAfter = (await callJson('GET', `${base}/api/v1/me`, user.apiKey)) as { entitlements: string[] };
        expect(meAfter.entitlements).toContain('developer-api');
        const minted = (await callJson('POST', `${base}/api/v1/me/keys`, user.apiKey, { label: 'second' })) as {
          apiKey: string;
        };
        expect(minted.apiKey).toMatch(/^sk_live_/);

        await callJson('PUT', `${base}/api/v1/me/handle`, user.apiKey, { handle: 'Cli_Tester' });
        const verify = await admin(data, 'verify', '@cli_tester');
        expect(verify.code).toBe(0);
        const record = (await callJson('GET', `${base}/api/v1/handles/cli_tester`, user.apiKey)) as {
          address: string;
          verified: boolean;
        };
        expect(record).toMatchObject({ address: user.address, verified: true });

        const revoke = await admin(
          data,
          'revoke-entitlement',
          user.address.toUpperCase().replace('0X', '0x'),
          'developer-api',
        );
        expect(revoke.code).toBe(0);
        const meRevoked = (await callJson('GET', `${base}/api/v1/me`, user.apiKey)) as { entitlements: string[] };
        expect(meRevoked.entitlements).not.toContain('developer-api');

        const { id: groupId } = (await callJson('POST', `${base}/api/v1/groups`, user.apiKey, {
          name: 'Operators',
          isPublic: true,
        })) as { id: string };
        const verifyGroup = await admin(data, 'verify-group', groupId);
        expect(verifyGroup.code).toBe(0);
        const view = (await callJson('GET', `${base}/api/v1/groups/${groupId}`, user.apiKey)) as {
          group: { verified: boolean };
        };
        expect(view.group.verified).toBe(true);

        const stats = await admin(data, 'stats');
        expect(stats.code).toBe(0);
        expect(JSON.parse(stats.stdout)).toMatchObject({
          accounts: 1,
          devices: 1,
          apiKeys: 2,
          groups: 1,
          queuedEnvelopes: 0,
          oldestQueuedAt: null,
        });
      } finally {
        exit = await relay.stop();
      }
      expect(exit).toEqual({ code: 0, signal: null });
      expect(relay.stderr()).not.toMatch(/error/i);

      // closed cleanly: the WAL was checkpointed away and the database opens again with the data
      const wal = join(data, 'relay.db-wal');
      expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
      const store = openSqliteStore(join(data, 'relay.db'));
      try {
        expect((await store.stats()).accounts).toBe(1);
        expect((await store.findHandle('cli_tester'))?.verified).toBe(true);
      } finally {
        await store.close();
      }
    },
    SLOW,
  );

  it(
    'on SIGTERM finishes a send already in flight before it closes',
    async () => {
      const data = tempDir();
      const relay = await startTs(CLI, ['--port', '0', '--data', data], READY);
      const alice = await signIn(relay.ready, 'sender');
      const bob = await signIn(relay.ready, 'recipient');
      // bob knows alice: 100 envelopes are inbox mail, not 100 pending contact requests (capped at 20)
      await callJson('PUT', `${relay.ready}/api/v1/contacts/${alice.address}`, bob.apiKey);
      const body = Buffer.from(envelopeBodies([{ address: bob.address, deviceKey: bob.deviceKey }], 1, 100)[0]);

      // `Expect: 100-continue` makes the relay say when it has taken the request on; only then
      // is the signal sent, and the body follows once the relay has begun to shut down
      const url = new URL(`${relay.ready}/api/v1/envelopes`);
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${alice.apiKey}`,
          'content-type': 'application/json',
          'content-length': body.length,
          expect: '100-continue',
        },
      });
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req.once('error', reject);
        req.once('response', (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
      });
      await new Promise<void>((resolve) => req.once('continue', resolve));
      relay.proc.kill('SIGTERM');
      while (!relay.stderr().includes('finishing requests in flight')) await new Promise((r) => setTimeout(r, 20));
      req.end(body);

      const { status, body: text } = await answer;
      expect(status).toBe(200);
      expect((JSON.parse(text) as { results: { routed: string }[] }).results).toHaveLength(100);
      expect(await relay.exited).toEqual({ code: 0, signal: null });
      const store = openSqliteStore(join(data, 'relay.db'));
      try {
        expect((await store.stats()).queuedEnvelopes).toBe(100);
      } finally {
        await store.close();
      }
    },
    SLOW,
  );

  it(
    'posts relay-started to a parent that forked it, and stops when the parent lets go',
    async () => {
      const data = tempDir();
      const child = fork(CLI, ['--port', '0', '--data', data], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      const message = await new Promise<{ type: string; url: string; baseUrl: string; fingerprint256: string | null }>(
        (resolve, reject) => {
          child.once('message', (m) =>
            resolve(m as { type: string; url: string; baseUrl: string; fingerprint256: string | null }),
          );
          child.once('exit', (code) => reject(new Error(`the relay exited with ${code} before it was ready`)));
        },
      );
      expect(message.type).toBe('relay-started');
      expect(message.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(message).toMatchObject({ baseUrl: message.url, fingerprint256: null });
      expect((await fetch(`${message.url}/openapi.json`)).status).toBe(200);
      child.disconnect();
      expect(await exited).toEqual({ code: 0, signal: null });
    },
    SLOW,
  );

  it(
    '--lan serves HTTPS with a self-signed certificate that clients pin, kept across restarts',
    async () => {
      const data = tempDir();
      const first = await startTs(CLI, ['--lan', '--port', '0', '--data', data], READY);
      let fingerprint: string;
      let port: number;
      try {
        expect(first.ready).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        port = Number(new URL(first.ready).port);
        await waitForLine(first.lines, FINGERPRINT);
        fingerprint = FINGERPRINT.exec(first.lines.find((l) => FINGERPRINT.test(l))!)![1];
        expect(first.lines).toContain(`TLS key and certificate created in ${data}`);

        const certPem = readFileSync(join(data, 'tls-cert.pem'), 'utf8');
        expect(new X509Certificate(certPem).fingerprint256).toBe(fingerprint);
        expect(statSync(join(data, 'tls-key.pem')).mode & 0o777).toBe(0o600);

        const answer = await pinnedGet(port, '/openapi.json', fingerprint);
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body).openapi).toBe('3.1.0');
        // a pin that does not match refuses the connection before a request is sent
        const wrong = fingerprint.replace(/^../, fingerprint.startsWith('00') ? '01' : '00');
        await expect(pinnedGet(port, '/openapi.json', wrong)).rejects.toThrow(/not the pinned/);
      } finally {
        expect(await first.stop()).toEqual({ code: 0, signal: null });
      }

      const second = await startTs(CLI, ['--lan', '--port', '0', '--data', data], READY);
      try {
        await waitForLine(second.lines, FINGERPRINT);
        expect(second.lines).toContain(`TLS certificate reused in ${data}`);
        expect(second.lines).toContain(`TLS certificate SHA-256 fingerprint: ${fingerprint}`);
        const again = await pinnedGet(Number(new URL(second.ready).port), '/openapi.json', fingerprint);
        expect(again.status).toBe(200);
      } finally {
        expect(await second.stop()).toEqual({ code: 0, signal: null });
      }
    },
    SLOW,
  );

  it(
    'refuses bad serve arguments with exit 2, a message and the usage',
    async () => {
      for (const [args, message] of [
        [['--port', 'eighty'], /--port: expected an integer/],
        [['--port', '70000'], /--port: must be between 0 and 65535/],
        [['--stake-currency', 'DOGE'], /--stake-currency: expected ETH or CRO/],
        [['--frobnicate'], /Unknown option '--frobnicate'/],
      ] as const) {
        const r = await runTs(CLI, [...args, '--data', tempDir()]);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).toMatch(/Usage:/);
        expect(r.stdout).toBe('');
      }
      const help = await runTs(CLI, ['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Usage:[\s\S]*--lan[\s\S]*revoke-entitlement/);
    },
    SLOW,
  );

  it(
    'answers operator errors with exit 1, bad arguments with exit 2, and a message on stderr',
    async () => {
      const data = tempDir();
      const missing = await admin(data, 'stats');
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/no relay database/);
      expect(existsSync(join(data, 'relay.db'))).toBe(false);

      await openSqliteStore(join(data, 'relay.db')).close();
      for (const [args, message] of [
        [['verify', '0x1111111111111111111111111111111111111111'], /unknown account/],
        [['verify', 'nobody_here'], /unknown handle @nobody_here/],
        [['grant', '0x2222222222222222222222222222222222222222', 'developer-api'], /unknown account/],
        [['verify-group', '0b9c1a4e-1111-4222-8333-444455556666'], /unknown group/],
      ] as const) {
        const r = await admin(data, ...args);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr).toMatch(message);
      }
      for (const [args, message] of [
        [['verify-group', 'not-a-uuid'], /not a group id/],
        [['grant', '0x2222222222222222222222222222222222222222'], /usage: admin grant/],
        [['grant', '0x2222222222222222222222222222222222222222', 'superpowers'], /unknown entitlement "superpowers"/],
        [['launch-missiles'], /unknown command/],
      ] as const) {
        const r = await admin(data, ...args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toMatch(message);
      }
    },
    SLOW,
  );
});

async function waitForLine(lines: string[], pattern: RegExp): Promise<void> {
  // the LAN block follows the ready line in the same write; give the pipe a few turns
  for (let i = 0; i < 100 && !lines.some((l) => pattern.test(l)); i++) await new Promise((r) => setTimeout(r, 20));
  expect(lines.some((l) => pattern.test(l))).toBe(true);
}

/**
 * GET over TLS pinned to a certificate fingerprint, the way a LAN client trusts a
 * self-signed relay: chain checks are off, and the socket is handed to HTTP only after
 * the peer's fingerprint matched.
 */
function pinnedGet(port: number, path: string, fingerprint256: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      const seen = socket.getPeerCertificate().fingerprint256;
      if (seen !== fingerprint256) {
        socket.destroy();
        reject(new Error(`certificate ${seen} is not the pinned ${fingerprint256}`));
        return;
      }
      const req = httpRequest(
        { host: '127.0.0.1', port, path, method: 'GET', createConnection: () => socket },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.once('error', reject);
      req.end();
    });
  });
}
