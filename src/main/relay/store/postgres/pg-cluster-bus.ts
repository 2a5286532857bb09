import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Doorbell, Recipient } from '../../live/doorbell.js';
import type { RemoteHold, Revoked } from '../../live/waiters.js';
import type { RevocationBus } from '../credential-cache.js';
import { listenOn, type ListenHandlers, type PgListener, type PgSql } from './pg-client.js';

const DOORBELL = 'relay_doorbell';
const REVOKED = 'relay_revoked';
const HELD = 'relay_held';
/**
 * Held pulls again, with whose they are and until when they wait (`address:keyId:hold:until`), for
 * the cap per wallet. A channel of its own: nodes of the version before read `relay_held` as
 * `keyId:hold` and keep doing so during an upgrade.
 */
const HELD_WALLET = 'relay_held_wallet';
/**
 * Under load the ringer sends at most one NOTIFY per this many milliseconds and gathers what is
 * rung meanwhile; after a quiet spell a ring goes out at once. Each NOTIFY is a transaction of its
 * own that wakes every node's LISTEN backend, so its rate should not follow the rate of sends: this
 * bounds it to 200 a second per node. A wake on another node waits at most this much longer, and
 * only while rings keep coming. (On the 2-core bench machine its effect on the send rate is within
 * the noise: docs/benchmarks.md, cluster.)
 */
export const RING_GATHER_MS = 5;

/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7000;
/** How often a node whose LISTEN connection is down looks at the envelope sequence. */
export const FALLBACK_POLL_MS = 250;
/** How long a revoking request waits at most to hear its announcement back. */
const ANNOUNCE_WAIT_MS = 1000;
/** Recipients a catch-up rings at most; past it the rest find their mail when their wait ends. */
const CATCH_UP_LIMIT = 10_000;

export interface ClusterBus extends Doorbell, RevocationBus {
  readonly nodeId: string;
  /** LISTEN is in force (false: the node polls the sequence instead). */
  readonly listening: boolean;
  close(): Promise<void>;
}

export const defaultNodeId = (): string => `${hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`;

/**
 * What makes several relay processes on one database behave as one relay, over PostgreSQL's
 * LISTEN/NOTIFY: the long-poll doorbell rung on every node, and credential caches emptied on every
 * node after a revocation, and one held pull per credential across the nodes.
 *
 * A ring is sent AFTER the delivery's commit (withDoorbell rings once `deliver` resolved, which the
 * batcher does only after COMMIT), never inside the send's transaction: a NOTIFY in a transaction
 * takes a cluster-wide lock at commit and would serialise every node's commits. The ringer
 * coalesces: what is rung in the same turn of the event loop goes out as one NOTIFY, and under load
 * at most one NOTIFY per RING_GATHER_MS, while this node's own held pulls are rung at once.
 *
 * While the LISTEN connection is down the node polls the envelope sequence every 250 ms and rings
 * the recipients of what arrived, so no pull waits past its wait time; when LISTEN is back it rings
 * everything queued since it went down, and empties its credential cache.
 */
export async function joinClusterBus(
  sql: PgSql,
  url: string,
  nodeId = defaultNodeId(),
  // a test stands in a LISTEN connection that never comes up, to see the fallback alone
  listen: (url: string, channels: readonly string[], handlers: ListenHandlers) => PgListener = listenOn,
): Promise<ClusterBus> {
  const doorbellListeners = new Set<(recipients: readonly Recipient[]) => void>();
  const heldListeners = new Set<(keyId: string, hold: number, outranks: boolean) => void>();
  const walletHeldListeners = new Set<(pull: RemoteHold) => void>();
  const revokedListeners = new Set<(revoked: Revoked | null) => void>();
  const fire = (recipients: readonly Recipient[]) => {
    if (recipients.length > 0) for (const l of doorbellListeners) l(recipients);
  };
  const revoked = (what: Revoked | null) => {
    for (const l of revokedListeners) l(what);
  };

  // --- the coalescing ringer (named for the doorbell it rings on every node: live/doorbell.ts)
  let pending = new Map<string, Recipient>();
  /** revocations announced by this node and not yet heard back, by number */
  const unheard = new Map<number, () => void>();
  let revocations = 0;
  /** `n` or `n\nwhat` (encodeRevoked), in the order announced */
  let revocationPending: string[] = [];
  let heldPending: string[] = [];
  let walletHeldPending: string[] = [];
  let sending: Promise<void> | null = null;
  /** when the last NOTIFY went out (performance.now()) */
  let lastSent = -Infinity;
  // One NOTIFY per call; what is rung meanwhile waits for the next one (flushSoon), RING_GATHER_MS on.
  const send = async () => {
    const batch = [...pending.values()];
    pending = new Map();
    const payloads: string[] = [];
    let current = '';
    for (const r of batch) {
      const part = `${r.address}:${r.deviceKey ?? ''}`;
      if (current.length + part.length + 1 > MAX_PAYLOAD) {
        payloads.push(current);
        current = '';
      }
      current += (current ? ',' : '') + part;
    }
    if (current) payloads.push(current);
    const notes = payloads.map((p) => ({ channel: DOORBELL, payload: `${nodeId}\n${p}` }));
    // `keyId:hold`, with uuid credential ids: a hundred fit one payload.
    const held = heldPending;
    heldPending = [];
    for (let i = 0; i < held.length; i += 100)
      notes.push({ channel: HELD, payload: `${nodeId}\n${held.slice(i, i + 100).join(',')}` });
    // `address:keyId:hold:until`: fifty fit one payload.
    const walletHeld = walletHeldPending;
    walletHeldPending = [];
    for (let i = 0; i < walletHeld.length; i += 50)
      notes.push({ channel: HELD_WALLET, payload: `${nodeId}\n${walletHeld.slice(i, i + 50).join(',')}` });
    for (const n of revocationPending) notes.push({ channel: REVOKED, payload: `${nodeId}\n${n}` });
    revocationPending = [];
    if (notes.length === 0) return;
    try {
      // One round trip, outside any delivery's transaction.
      lastSent = performance.now();
      await sql`SELECT pg_notify(n.channel, n.payload) FROM unnest(${notes.map((n) => n.channel)}::text[], ${notes.map((n) => n.payload)}::text[]) AS n(channel, payload)`;
    } catch {
      // The database is gone: the other nodes' LISTEN is down as well, and they poll.
    }
  };
  // libuv times a timer from the loop's clock as of its last turn, so one can fire up to a
  // millisecond early by performance.now(): the gap is looked at again rather than trusted.
  const afterGather = (resolve: () => void) => {
    const wait = lastSent + RING_GATHER_MS - performance.now();
    if (wait > 0) setTimeout(() => afterGather(resolve), Math.ceil(wait));
    else setImmediate(resolve);
  };
  const flushSoon = () => {
    sending ??= new Promise<void>(afterGather).then(send).finally(() => {
      sending = null;
      if (pending.size > 0 || revocationPending.length > 0 || heldPending.length > 0 || walletHeldPending.length > 0)
        flushSoon();
    });
  };

  // --- the fallback: the envelope sequence, polled while LISTEN is down
  const [{ sequence }] = await sql<
    { sequence: string }[]
  >`SELECT pg_get_serial_sequence('envelopes', 'seq') AS sequence`;
  const lastSeq = async (): Promise<number> => {
    const [r] = await sql.unsafe<{ last: number }[]>(
      `SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS last FROM ${sequence}`,
    );
    return r.last;
  };
  /** Rings the recipients of every envelope queued after `since`. */
  const ringSince = async (since: number) => {
    const rows = await sql<{ address: string; deviceKey: string | null }[]>`
      SELECT DISTINCT recipient AS address, device_key AS "deviceKey" FROM envelopes WHERE seq > ${since} LIMIT ${CATCH_UP_LIMIT}`;
    fire(rows);
  };
  // `older` is the sequence as it was one look before `known`: a value handed out just before a
  // look may belong to a row that commits just after it, so rings start from `older`.
  let known = await lastSeq().catch(() => 0);
  let older = known;
  let ticks = 0;
  const look = async () => {
    const now = await lastSeq();
    if (!listener.listening && now !== older) await ringSince(older);
    older = known;
    known = now;
  };
  // While LISTEN is up the marks move every few seconds (for the catch-up after a loss); while it
  // is down the node looks every tick and rings what arrived.
  const poller = setInterval(() => {
    if (listener.listening && ++ticks % 20 !== 0) return;
    look().catch(() => undefined);
  }, FALLBACK_POLL_MS);
  poller.unref();

  let everUp = false;
  let missedSince: number | null = null;
  const listener: PgListener = listen(url, [DOORBELL, REVOKED, HELD, HELD_WALLET], {
    notify(channel, payload) {
      const newline = payload.indexOf('\n');
      const own = payload.slice(0, newline) === nodeId;
      if (channel === REVOKED) {
        const [n, what] = payload.slice(newline + 1).split('\n');
        if (!own) revoked(decodeRevoked(what));
        else unheard.get(Number(n))?.();
        return;
      }
      if (own) return;
      if (channel === HELD_WALLET) {
        for (const part of payload.slice(newline + 1).split(',')) {
          const [address, keyId, hold, until] = part.split(':');
          const pull = { address, keyId, hold: Number(hold), until: Number(until) };
          if (keyId && Number.isFinite(pull.hold) && Number.isFinite(pull.until))
            for (const l of walletHeldListeners) l(pull);
        }
        return;
      }
      if (channel === HELD) {
        const outranks = payload.slice(0, newline) > nodeId;
        for (const part of payload.slice(newline + 1).split(',')) {
          const colon = part.lastIndexOf(':');
          for (const l of heldListeners) l(part.slice(0, colon), Number(part.slice(colon + 1)), outranks);
        }
        return;
      }
      const recipients: Recipient[] = [];
      for (const part of payload.slice(newline + 1).split(',')) {
        const colon = part.indexOf(':');
        recipients.push({
          address: part.slice(0, colon),
          deviceKey: colon === part.length - 1 ? null : part.slice(colon + 1),
        });
      }
      fire(recipients);
    },
    up() {
      if (everUp) {
        // Whatever was said while nobody listened: ring it, and trust no cached credential nor held pull.
        revoked(null);
        const since = missedSince ?? older;
        missedSince = null;
        void ringSince(since).catch(() => undefined);
      }
      everUp = true;
    },
    down() {
      missedSince ??= older;
    },
  });
  await listener.ready(10_000);

  return {
    nodeId,
    get listening() {
      return listener.listening;
    },
    get trusted() {
      return listener.listening;
    },
    ring(recipients) {
      if (recipients.length === 0) return;
      fire(recipients);
      // the address and device only: a delivery's envelope rows are for this node's pulls, not kept for the NOTIFY
      for (const r of recipients)
        pending.set(`${r.address}:${r.deviceKey ?? ''}`, { address: r.address, deviceKey: r.deviceKey });
      flushSoon();
    },
    listen(l) {
      doorbellListeners.add(l);
      return () => doorbellListeners.delete(l);
    },
    held(keyId, hold, wallet) {
      heldPending.push(`${keyId}:${hold}`);
      if (wallet) walletHeldPending.push(`${wallet.address}:${keyId}:${hold}:${Math.ceil(wallet.until)}`);
      flushSoon();
    },
    onHeld(l) {
      heldListeners.add(l);
      return () => heldListeners.delete(l);
    },
    onWalletHeld(l) {
      walletHeldListeners.add(l);
      return () => walletHeldListeners.delete(l);
    },
    announce(what) {
      const n = ++revocations;
      revocationPending.push(what ? `${n}\n${encodeRevoked(what)}` : String(n));
      flushSoon();
      // Sent even while our LISTEN is down (the NOTIFY goes over the pool); only hearing it back needs LISTEN.
      if (!listener.listening) return Promise.resolve();
      // PostgreSQL hands a notification to every listener at once: hearing our own back means the
      // other nodes have been sent it too. Bounded, so a lost database cannot hold the answer.
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          unheard.delete(n);
          resolve();
        };
        const timer = setTimeout(done, ANNOUNCE_WAIT_MS);
        unheard.set(n, done);
      });
    },
    onRevoked(l) {
      revokedListeners.add(l);
      return () => revokedListeners.delete(l);
    },
    async close() {
      clearInterval(poller);
      await sending;
      await listener.close();
    },
  };
}

/** What a revocation names, in its NOTIFY: `k:<key id>`, `d:<address>:<device key>`, `w:<address>` or `t:<token id>`. */
function encodeRevoked(r: Revoked): string {
  if ('keyId' in r) return `k:${r.keyId}`;
  if ('wallet' in r) return `w:${r.wallet}`;
  if ('address' in r) return `d:${r.address}:${r.deviceKey}`;
  return `t:${r.tokenId}`;
}

/** null when the announcement names nothing (a node of the version before): held pulls are then all looked at again. */
function decodeRevoked(text: string | undefined): Revoked | null {
  const [kind, a, b] = (text ?? '').split(':');
  if (kind === 'k' && a) return { keyId: a };
  if (kind === 'd' && a && b) return { address: a, deviceKey: b };
  if (kind === 'w' && a) return { wallet: a };
  if (kind === 't' && a) return { tokenId: a };
  return null;
}
