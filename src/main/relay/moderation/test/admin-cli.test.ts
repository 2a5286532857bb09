/**
 * `relay admin` as an operator runs it against a relay process on the same data folder: the
 * command reaches the running relay through its admin socket, takes effect at once, prints one
 * JSON object, and is logged by both processes. Without a running relay it changes the database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs, startTs } from '../../../test-support/child-process.js';
import { call, certify, newDeviceKey } from '../../test/harness.js';
import { ADMIN_SOCKET } from '../admin-socket.js';
import { inviteLink, pinHex } from '../invite-codes.js';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const SLOW = 120_000;

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'relay-admin-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function trySignIn(base: string, account: PrivateKeyAccount, invite?: string) {
  const ch = await call(base, 'POST', '/api/v1/auth/challenge', { body: { address: account.address } });
  const deviceKey = newDeviceKey();
  return call(base, 'POST', '/api/v1/auth/keys', {
    body: {
      message: ch.body.message,
      signature: await account.signMessage({ message: ch.body.message }),
      device: { publicKey: deviceKey, certificate: await certify(account, deviceKey) },
      ...(invite === undefined ? {} : { invite }),
    },
  });
}

describe('relay admin', () => {
  it(
    'reaches the running relay: invites, users, suspension at once, and an audit line on each side',
    async () => {
      const data = join(tempDir(), 'data');
      const relay = await startTs(
        CLI,
        ['--port', '0', '--data', data, '--rate-limit', '0', '--registration', 'invite', '--log-format', 'json'],
        /"msg":"relay listening on ([^"]+)"/,
      );
      const admin = (...args: string[]) => runTs(CLI, ['admin', '--data', data, ...args]);
      const alice = privateKeyToAccount(generatePrivateKey());
      try {
        const base = relay.ready;
        expect(statSync(join(data, ADMIN_SOCKET)).mode & 0o777).toBe(0o600);

        const created = await admin('invite', 'create', '--uses', '1', '--expires', '2h');
        expect(created.code).toBe(0);
        const invite = JSON.parse(created.stdout) as { code: string; link: string; uses: number; expiresAt: string };
        expect(invite.link).toBe(`${base}/join#invite=${invite.code}`);
        expect(invite.uses).toBe(1);
        expect(Date.parse(invite.expiresAt) - Date.now()).toBeGreaterThan(3_600_000);
        expect(JSON.parse(created.stderr.trim())).toMatchObject({
          msg: 'admin action',
          command: 'invite-create',
          via: 'relay',
          outcome: 'done',
        });

        const without = await trySignIn(base, alice);
        expect([without.status, without.body.code]).toEqual([403, 'invite-required']);
        const joined = await trySignIn(base, alice, invite.code);
        expect(joined.status).toBe(200);
        await call(base, 'PUT', '/api/v1/me/handle', { auth: joined.body.apiKey, body: { handle: 'alice_t' } });

        const users = JSON.parse((await admin('users')).stdout) as { items: Array<Record<string, unknown>> };
        expect(users.items).toEqual([
          {
            address: alice.address.toLowerCase(),
            handle: 'alice_t',
            devices: 1,
            lastSignIn: expect.any(String),
            queued: 0,
            state: 'active',
          },
        ]);
        const list = JSON.parse((await admin('invite', 'list')).stdout) as { items: unknown[] };
        expect(list.items).toEqual([{ code: invite.code, usesLeft: 0, expiresAt: invite.expiresAt, revoked: false }]);

        // a second teammate, with a blob, leaves for good: account, handle, file and all
        const { code } = JSON.parse((await admin('invite', 'create')).stdout) as { code: string };
        const bob = privateKeyToAccount(generatePrivateKey());
        const bobIn = await trySignIn(base, bob, code);
        await call(base, 'PUT', '/api/v1/me/handle', { auth: bobIn.body.apiKey, body: { handle: 'bob_t' } });
        const blob = await fetch(`${base}/api/v1/blobs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bobIn.body.apiKey}`, 'content-type': 'application/octet-stream' },
          body: randomBytes(4096),
        });
        const blobId = ((await blob.json()) as { id: string }).id;
        expect(readdirSync(join(data, 'blobs'))).toContain(blobId);
        const deleted = await admin('delete-account', '@bob_t');
        expect([deleted.code, JSON.parse(deleted.stdout)]).toEqual([
          0,
          { address: bob.address.toLowerCase(), deleted: true },
        ]);
        expect(readdirSync(join(data, 'blobs'))).not.toContain(blobId);
        expect((await call(base, 'GET', '/api/v1/me', { auth: bobIn.body.apiKey })).status).toBe(401);
        expect((await call(base, 'GET', '/api/v1/handles/bob_t', { auth: joined.body.apiKey })).status).toBe(404);

        const suspended = await admin('suspend', '@alice_t', '--reason', 'left the team');
        expect([suspended.code, JSON.parse(suspended.stdout)]).toEqual([
          0,
          { address: alice.address.toLowerCase(), state: 'suspended' },
        ]);
        // in force at once: the relay's cached credential is gone with it
        expect((await call(base, 'GET', '/api/v1/me', { auth: joined.body.apiKey })).status).toBe(401);
        expect((await trySignIn(base, alice)).body.code).toBe('suspended');
        // the relay logs what it carried out
        expect(
          relay.lines.some(
            (l) =>
              l.includes('"msg":"admin action"') && l.includes('"command":"suspend"') && l.includes('left the team'),
          ),
        ).toBe(true);

        const unknown = await admin('invite', 'revoke', 'noSuchCode0');
        expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/unknown invite code noSuchCode0/)]);
        const superpowers = await admin('grant', '@alice_t', 'superpowers');
        expect(superpowers.code).toBe(2);
        expect(superpowers.stderr).toMatch(/unknown entitlement "superpowers": this relay knows developer-api/);
      } finally {
        await relay.stop();
      }

      // no relay runs now: the command changes the database, and says so in its log line
      const offline = await admin('unsuspend', alice.address);
      expect(offline.code).toBe(0);
      expect(JSON.parse(offline.stderr.trim())).toMatchObject({ command: 'unsuspend', via: 'database' });
      const offlineInvite = JSON.parse((await admin('invite', 'create')).stdout) as { link: string | null };
      expect(offlineInvite.link).toBeNull();
    },
    SLOW,
  );

  it('an invite link carries the relay address, and with --lan its public-key pin in hex', () => {
    const pin = Buffer.alloc(32, 0xab).toString('base64');
    expect(inviteLink({ baseUrl: 'https://192.168.1.20:8443/', pin: pinHex(pin) }, 'CODE_abc-123')).toBe(
      `https://192.168.1.20:8443/join#invite=CODE_abc-123&pin=${'ab'.repeat(32)}`,
    );
  });
});
