import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { runAdmin } from '../../admin.js';
import { parseInvocation } from '../../cli-args.js';
import { DEFAULT_CONFIG, type RelayConfig } from '../../config.js';
import { privateCluster } from '../../store/test/backends.js';
import { pgMissing } from '../../../test-support/pg-cluster.js';
import { startNode, type ClusterNode } from '../cluster-harness.js';
import { call, certify, envelopeTo, newDeviceKey, signIn, watchHeldPulls, type TestUser } from '../harness.js';

/**
 * Who may join and moderation on a cluster: an operator's command reaches every node at once,
 * through the cluster's database and its bus (`relay admin --database`), as it would from
 * another machine. Each case talks to node A and node B directly.
 */
/** What the admin commands print, as far as these tests read it. */
type AdminAnswer = Record<string, unknown> & { code: string; items: Array<Record<string, unknown>> };

const missing = pgMissing();
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const holds = watchHeldPulls();
const reasonsOf = (u: TestUser) => holds.filter((h) => h.keyId === u.keyId).map((h) => h.reason);

async function trySignIn(node: ClusterNode, account: PrivateKeyAccount, invite?: string) {
  const ch = await call(node.url, 'POST', '/api/v1/auth/challenge', { body: { address: account.address } });
  const deviceKey = newDeviceKey();
  return call(node.url, 'POST', '/api/v1/auth/keys', {
    body: {
      message: ch.body.message,
      signature: await account.signMessage({ message: ch.body.message }),
      device: { publicKey: deviceKey, certificate: await certify(account, deviceKey) },
      ...(invite === undefined ? {} : { invite }),
    },
  });
}

describe.skipIf(missing !== null)(
  `moderation on a cluster of two nodes${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let url: string;
    let a: ClusterNode;
    let b: ClusterNode;
    const admin = async (...args: string[]) => {
      const inv = parseInvocation(['admin', '--database', url, ...args]);
      if (inv.mode !== 'admin') throw new Error('expected an admin command');
      return JSON.parse((await runAdmin(inv.options)).answer) as AdminAnswer;
    };

    beforeAll(async () => {
      url = await privateCluster().createDatabase();
      const config: RelayConfig = {
        ...DEFAULT_CONFIG,
        rateLimit: 0,
        minFreeDiskMib: 0,
        baseUrl: 'http://127.0.0.1',
        registration: 'invite',
      };
      a = await startNode(url, 'a', config, Date.now);
      b = await startNode(url, 'b', config, Date.now);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await privateCluster().destroy();
    });

    it('an invite made by the operator is spent on either node, once per use; revoked, no node takes it', async () => {
      const invite = await admin('invite', 'create', '--uses', '2', '--expires', '1d');
      expect(invite).toMatchObject({ uses: 2, link: null });
      expect((await trySignIn(a, privateKeyToAccount(generatePrivateKey()), invite.code)).status).toBe(200);
      expect((await trySignIn(b, privateKeyToAccount(generatePrivateKey()), invite.code)).status).toBe(200);
      const third = await trySignIn(b, privateKeyToAccount(generatePrivateKey()), invite.code);
      expect([third.status, third.body.code]).toEqual([403, 'invite-invalid']);

      const other = await admin('invite', 'create');
      expect(await admin('invite', 'revoke', other.code)).toEqual({ revoked: true });
      const refused = await trySignIn(a, privateKeyToAccount(generatePrivateKey()), other.code);
      expect([refused.status, refused.body.code]).toEqual([403, 'invite-invalid']);
      const listed = (await admin('invite', 'list')).items as Array<Record<string, unknown>>;
      expect(listed).toEqual(
        expect.arrayContaining([
          { code: invite.code, usesLeft: 0, expiresAt: invite.expiresAt, revoked: false },
          expect.objectContaining({ code: other.code, revoked: true }),
        ]),
      );
    });

    it('a suspension stops the wallet at once on both nodes: a pull held on B, its keys on A, its bot token on B', async () => {
      const { code } = await admin('invite', 'create', '--uses', '2');
      const alice = privateKeyToAccount(generatePrivateKey());
      expect((await trySignIn(a, alice, code)).status).toBe(200);
      const aliceKey = await signIn(a.url, alice);
      // bob is new too: he takes the code's second use
      const bobSignIn = await trySignIn(b, privateKeyToAccount(generatePrivateKey()), code);
      const bob = { apiKey: bobSignIn.body.apiKey as string };
      const group = await call(a.url, 'POST', '/api/v1/groups', {
        auth: aliceKey.apiKey,
        body: { name: 'Team', isPublic: false },
      });
      const minted = await call(a.url, 'POST', `/api/v1/groups/${group.body.id}/tokens`, {
        auth: aliceKey.apiKey,
        body: { name: 'deploy bot' },
      });
      const token: string = minted.body.token;
      expect((await call(b.url, 'GET', `/api/v1/groups/${group.body.id}`, { auth: token })).status).toBe(200);

      const held = call(b.url, 'GET', '/api/v1/envelopes?wait=20', { auth: aliceKey.apiKey });
      await expect.poll(() => b.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
      expect(await admin('suspend', aliceKey.address, '--reason', 'spam')).toEqual({
        address: aliceKey.address,
        state: 'suspended',
      });
      expect((await held).status).toBe(401);
      // answered by the suspension, not when its wait ran out
      expect(reasonsOf(aliceKey)).toEqual(['revoked']);
      expect((await call(a.url, 'GET', '/api/v1/me', { auth: aliceKey.apiKey })).status).toBe(401);
      expect((await call(b.url, 'GET', `/api/v1/groups/${group.body.id}`, { auth: token })).status).toBe(401);
      const again = await trySignIn(b, alice);
      expect([again.status, again.body.code]).toEqual([403, 'suspended']);
      // mail to a suspended wallet still queues
      expect(
        (await call(b.url, 'POST', '/api/v1/envelopes', { auth: bob.apiKey, body: envelopeTo(aliceKey) })).status,
      ).toBe(200);
      const users = (await admin('users')).items as Array<Record<string, unknown>>;
      expect(users.find((u) => u.address === aliceKey.address)).toMatchObject({ state: 'suspended', queued: 1 });

      expect(await admin('unsuspend', aliceKey.address)).toEqual({ address: aliceKey.address, state: 'active' });
      const back = await trySignIn(a, alice);
      expect(back.status).toBe(200);

      // deleted through the database: its new key stops on B as well, and its group is gone
      expect(await admin('delete-account', aliceKey.address)).toEqual({ address: aliceKey.address, deleted: true });
      expect((await call(b.url, 'GET', '/api/v1/me', { auth: back.body.apiKey })).status).toBe(401);
      expect(await b.node.store.getGroup(group.body.id)).toBeNull();
    });
  },
);
