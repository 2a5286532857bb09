import type { Revoked } from '../live/waiters.js';
import type { ApiKeyRow, BotTokenRow, RelayStore } from './store.js';

const TTL_MS = 60_000;

/** The credential caches of every node of a cluster, emptied together when any node revokes a credential. */
export interface RevocationBus {
  /**
   * Tells every other node that a credential was revoked (after the commit), and which when it is
   * known (their held pulls with it are answered 401); resolves once the news has gone round (this
   * node heard it back), so the revoking request answers only when the other nodes have it too.
   * Never rejects.
   */
  announce(revoked?: Revoked): Promise<void>;
  /** Called when another node revoked a credential, or with null when revocations may have been missed. */
  onRevoked(listener: (revoked: Revoked | null) => void): () => void;
  /** Whether a cached credential can be trusted now: false while this node could be missing revocations. */
  readonly trusted: boolean;
}
/**
 * Twice the default cap of held pulls (config.ts, maxHeldPulls): every held pull is a credential
 * in use, and at 10,000 entries a relay holding 10,000 pulls and their senders overflowed it on
 * every turn (at most ~600 bytes an entry).
 */
const MAX_ENTRIES = 20_000;

/**
 * What a demotion or removal announces: the tokens it revoked are not named one by one (the
 * store revoked them in its transaction), and a token revocation empties every node's cache of
 * tokens whichever token it names. Tokens hold no pulls, so the name reaches nothing else.
 */
const MINTER_REVOKED = 'minted-by';

type Cached<T> = { row: T; until: number };

/**
 * Every authenticated request looks its credential up by hash; that lookup was the largest
 * single cost of a send. This wraps the store so known credentials are answered from memory,
 * and every revocation through this relay (keys, devices, bot tokens) empties the cache before
 * it returns, so a revoked credential still answers 401 at once. Unknown hashes are never
 * cached, so a new key works immediately. On a cluster, `revocations` empties every node's cache
 * after a revocation on any of them, and the cache is bypassed while a node could miss one; the
 * TTL bounds staleness should another process revoke credentials without telling anyone.
 */
export function withCredentialCache(
  store: RelayStore,
  now: () => number = Date.now,
  revocations?: RevocationBus,
  /** hears this node's own revocations at once, after their commit (held pulls stop) */
  revokedHere: (revoked: Revoked) => void = () => undefined,
): RelayStore {
  const keys = new Map<string, Cached<ApiKeyRow & { hash: Buffer }>>();
  const tokens = new Map<string, Cached<BotTokenRow & { hash: Buffer }>>();

  function cached<T>(map: Map<string, Cached<T>>, load: (hash: Buffer) => Promise<T | null>) {
    return async (hash: Buffer): Promise<T | null> => {
      const id = hash.toString('base64');
      const hit = map.get(id);
      const t = now();
      if (hit && hit.until > t && (revocations?.trusted ?? true)) {
        if (!revocations) return hit.row;
        // A revocation on another node reaches this one as a notification on the bus's socket,
        // which may have become readable in the same turn as this request: let that turn's
        // other callbacks run first, so a key revoked before this request began is not let in.
        await new Promise((resolve) => setImmediate(resolve));
        if (map.get(id) === hit) return hit.row;
      }
      const row = await load(hash);
      if (row) {
        // the oldest entry goes (a Map keeps insertion order): emptying the whole map here made
        // every credential miss at once whenever one more than it holds was in use
        if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
        map.set(id, { row, until: t + TTL_MS });
      } else map.delete(id);
      return row;
    };
  }
  const forgetHere = () => {
    keys.clear();
    tokens.clear();
  };
  revocations?.onRevoked(forgetHere);
  /** After a revocation's commit: what it revoked, when it revoked anything (held pulls with it stop here at once). */
  const forgetAll = async (revoked: Revoked | null) => {
    forgetHere();
    if (revoked) revokedHere(revoked);
    await revocations?.announce(revoked ?? undefined);
  };
  /** Runs a revocation and tells everyone, whether it went through or not (the caches are emptied either way). */
  const revoking = async (work: Promise<boolean>, what: Revoked): Promise<boolean> => {
    let done = false;
    try {
      done = await work;
      return done;
    } finally {
      await forgetAll(done ? what : null);
    }
  };

  /** After a change that may have revoked bot tokens by their minter: forgotten here, announced to every node. */
  const mintersGone = async (work: Promise<boolean>): Promise<boolean> => {
    const done = await work;
    if (done) await forgetAll({ tokenId: MINTER_REVOKED });
    return done;
  };

  return Object.assign(Object.create(store) as RelayStore, {
    findApiKeyByHash: cached(keys, (h) => store.findApiKeyByHash(h)),
    findBotTokenByHash: cached(tokens, (h) => store.findBotTokenByHash(h)),
    revokeApiKey: (address: string, id: string, at: number) =>
      revoking(store.revokeApiKey(address, id, at), { keyId: id.toLowerCase() }),
    revokeDevice: (address: string, publicKey: string, at: number) =>
      revoking(store.revokeDevice(address, publicKey, at), {
        address: address.toLowerCase(),
        deviceKey: publicKey.toLowerCase(),
      }),
    revokeBotToken: (groupId: string, id: string, at: number) =>
      revoking(store.revokeBotToken(groupId, id, at), { tokenId: id.toLowerCase() }),
    // A suspension revokes every key of the wallet; lifting one revokes nothing.
    setSuspended: (address: string, suspended: boolean, reason: string | null, at: number) =>
      suspended
        ? revoking(store.setSuspended(address, true, reason, at), { wallet: address.toLowerCase() })
        : store.setSuspended(address, false, reason, at),
    deleteAccount: async (address: string) => {
      let deleted: Awaited<ReturnType<RelayStore['deleteAccount']>> = null;
      await revoking(
        store.deleteAccount(address).then((d) => (deleted = d) !== null),
        { wallet: address.toLowerCase() },
      );
      return deleted;
    },
    // Demoting or removing an admin revokes the bot tokens they minted (in the store's own
    // transaction), so every node must forget its cached tokens as after any revocation. Only a
    // change that happened is announced: a refused one revoked nothing.
    setAdmin: (groupId: string, address: string, admin: boolean, at?: number) =>
      admin ? store.setAdmin(groupId, address, admin, at) : mintersGone(store.setAdmin(groupId, address, admin, at)),
    removeMember: (groupId: string, address: string, at?: number) =>
      mintersGone(store.removeMember(groupId, address, at)),
  });
}
