import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteRelayStore } from '../sqlite-store.js';
import { addr, openTempStore, type TempStore } from '../../test/temp-store.js';

let t: TempStore;
let cli: SqliteRelayStore;
beforeEach(() => {
  t = openTempStore();
  // the operator's command line opens the same file while the relay runs
  cli = openSqliteStore(t.file, { checkpointIntervalMs: 0 });
});
afterEach(async () => {
  await cli.close();
  await t.cleanup();
});

const A = addr(1);
const G = '00000000-0000-4000-8000-000000000001';

describe('operator changes from a second connection', () => {
  it('are seen by the running relay at once: verified, entitlements, group verified', async () => {
    await t.store.setHandle(A, 'acme', 1);
    await t.store.createGroup({
      id: G,
      name: 'g',
      isPublic: true,
      passwordHash: null,
      avatar: null,
      creatorAddress: A,
      now: 1,
    });
    // warm every read path first, so that a cache would be caught holding the old answer
    expect((await t.store.getAccount(A))?.verified).toBe(false);
    expect((await t.store.findHandle('acme'))?.verified).toBe(false);
    expect(await t.store.getEntitlements(A)).toEqual([]);
    expect((await t.store.getGroup(G))?.verified).toBe(false);

    expect(await cli.setVerified(A, true)).toBe(true);
    await cli.grantEntitlement(A, 'developer-api');
    expect(await cli.setGroupVerified(G, true)).toBe(true);

    expect((await t.store.getAccount(A))?.verified).toBe(true);
    expect((await t.store.findHandle('acme'))?.verified).toBe(true);
    expect((await t.store.searchDirectory('acme', 5))[0].verified).toBe(true);
    expect(await t.store.getEntitlements(A)).toEqual(['developer-api']);
    expect((await t.store.getGroup(G))?.verified).toBe(true);
    expect((await t.store.listGroups({ mine: null, limit: 5, before: null }))[0].verified).toBe(true);

    expect(await cli.revokeEntitlement(A, 'developer-api')).toBe(true);
    expect(await cli.setVerified(A, false)).toBe(true);
    expect(await t.store.getEntitlements(A)).toEqual([]);
    expect((await t.store.getAccount(A))?.verified).toBe(false);
  });

  it('sees a plain SQL write from another process-like connection too', async () => {
    await t.store.setPolicy(A, 'request', null);
    expect((await t.store.getAccount(A))?.verified).toBe(false);
    t.raw().prepare('UPDATE accounts SET verified = 1 WHERE address = ?').run(A);
    expect((await t.store.getAccount(A))?.verified).toBe(true);
  });
});
