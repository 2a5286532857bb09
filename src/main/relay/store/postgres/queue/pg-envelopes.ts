import type { UnknownSenders } from '../../../../../shared/api/account.js';
import { routeDirect } from '../../../routing.js';
import { asUnavailable, isRetryable, MAX_ATTEMPTS, type PgSql, type PgTx } from '../pg-client.js';
import { ACK, ACK_MANY, AckBatcher } from './pg-acks.js';
import {
  requestShare,
  StoreError,
  type Delivery,
  type DeliveryItem,
  type DeliveryOutcome,
  type EnvelopeRow,
} from '../../store.js';
import { requestsFull } from '../../limit-refusals.js';
import {
  decodedSize,
  envelopeWireParts,
  newEnvelopeRow,
  recipientFull,
  STAKE_USED,
  stakedRequest,
  stakeFirstLook,
  tooManyRequestsPending,
} from '../../envelope-rows.js';
import type { EnvelopesPart } from '../../store-parts.js';

/** Deliveries answered by one transaction at most; a few hundred cost one fsync, like one. */
const MAX_BATCH = 256;
/** Rows a sweep deletes per transaction. */
const SWEEP_CHUNK = 5000;
/** The advisory lock held by the node that sweeps; the others skip the hour's sweep. */
const SWEEP_LOCK = 0x7377656570; // "sweep"
/** The namespace (first key) of the per-recipient delivery locks; an invitation takes its recipient's too. */
export const RECIPIENT_LOCKS = 0x71756575; // "queu"

const ENVELOPE_COLUMNS = `id, sender AS "senderAddress", recipient AS "recipientAddress", device_key AS "recipientDeviceKey",
  ciphertext, ephemeral_public_key AS "ephemeralPublicKey", nonce, created_at AS "createdAt", routed, group_id AS "groupId", via, bot_name AS "botName", stake`;

/**
 * One row as the wire Envelope, field for field in presentEnvelope's order. A row queued by this
 * version carries its JSON around the ciphertext, written at the send (envelopeWireParts), so a
 * pull only joins three texts a row: building the JSON here from the columns was most of a
 * pull's time (measured on the database, a device's 100-envelope page, p50: 1.84 ms with
 * row_to_json, 0.9-1.2 ms by concatenating the columns, 0.7 ms joining the kept texts). A row without those parts (queued by an earlier version during a
 * rolling upgrade, or with a ciphertext that would need JSON escaping) is built from its columns
 * as before: row_to_json keeps the select's order and writes no spaces, created_at becomes
 * Date#toISOString's text, and a staked request gets `stake` appended. COALESCE evaluates that
 * subquery only for such rows.
 */
const ENVELOPE_JSON = `coalesce(e.wire_head || e.ciphertext || e.wire_tail, (SELECT CASE WHEN e.stake IS NULL THEN w.j ELSE left(w.j, -1) || ',"stake":' || e.stake || '}' END
  FROM (SELECT row_to_json(x)::text AS j FROM (SELECT e.id, e.sender AS "senderAddress", e.recipient AS "recipientAddress",
  e.device_key AS "recipientDeviceKey", e.ciphertext, e.ephemeral_public_key AS "ephemeralPublicKey", e.nonce,
  to_char(timestamp 'epoch' + e.created_at * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  false AS delivered, e.routed, e.group_id AS "groupId", e.via, e.bot_name AS "botName") x) w))`;

/**
 * The first `$2` envelopes a pull sees, oldest first, as a subquery ($1 the recipient, $3 the
 * device): a device's own (envelopes_device_page) and those sealed to no device
 * (envelopes_unbound_page) are two ordered index ranges, each stopping at the page size, merged.
 *
 * Each page is written so that an inbox index is the only way to its order, whatever the planner
 * estimates. The driver prepares statements, and a connection's cached generic plan estimates a
 * recipient as the table's average: with a few busy recipients (a small team's relay, the bench)
 * `recipient = $1 … ORDER BY seq` looked cheapest by walking the primary key in seq order and
 * filtering, which for a quiet recipient reads the whole queue (61 ms against 0.08 ms at 100,000
 * rows; pg-query-plans.test.ts). An equality drops its column from the order wanted, leaving
 * `seq`, which the primary key gives too; a range that is an equality in disguise (`>= $1 AND
 * <= $1`: the same rows under any deterministic collation) keeps `recipient` in it, and no other
 * index gives `recipient, seq`.
 */
const INBOX_PAGE = `(SELECT * FROM envelopes WHERE recipient >= $1 AND recipient <= $1 ORDER BY recipient, seq LIMIT $2)`;
const DEVICE_PAGE = `((SELECT * FROM envelopes WHERE device_key = $3 AND recipient >= $1 AND recipient <= $1 ORDER BY recipient, seq LIMIT $2)
  UNION ALL (SELECT * FROM envelopes WHERE device_key IS NULL AND recipient >= $1 AND recipient <= $1 ORDER BY recipient, seq LIMIT $2)
  ORDER BY recipient, seq LIMIT $2)`;
const rowsOf = (page: string) => `SELECT ${ENVELOPE_COLUMNS} FROM ${page} e ORDER BY seq`;
const wireOf = (page: string) =>
  `SELECT '[' || coalesce(string_agg(${ENVELOPE_JSON}, ',' ORDER BY e.seq), '') || ']' AS page FROM ${page} e`;
// Whole statements, parameters bound, rather than tagged templates with nested fragments: a
// query built from fragments left each query's objects alive through every young-generation
// collection (the driver's fragments are pending promises), measured in a probe loop as 0.2-0.9 MB
// promoted per scavenge and a full collection every ~2,000 pulls; the same statement as one text
// promotes 3 KB.
const PULL = { any: rowsOf(INBOX_PAGE), device: rowsOf(DEVICE_PAGE) };
const PULL_WIRE = { any: wireOf(INBOX_PAGE), device: wireOf(DEVICE_PAGE) };

/** The queue's statements, each taking ($1 recipient, $2 limit or ids, $3 device), and the batched ack; exported so that tests can EXPLAIN them. */
export const PG_ENVELOPE_SQL = { pull: PULL, pullWire: PULL_WIRE, ack: ACK, ackMany: ACK_MANY } as const;

/** Everything the routing rules and the checks need about one item, read for a whole batch at once. */
interface ItemFacts {
  blocked: boolean;
  allowed: boolean;
  sentBefore: boolean;
  policy: UnknownSenders | null;
  stake: string | null;
  deviceOk: boolean;
  member: boolean;
  queued: number;
  queuedBytes: number;
  requests: number;
  requestBytes: number;
  pending: number;
}

const FACTS = `SELECT
    EXISTS (SELECT 1 FROM contacts c WHERE c.owner = i.recipient AND c.kind = 'block' AND c.other = i.sender) AS blocked,
    EXISTS (SELECT 1 FROM contacts c WHERE c.owner = i.recipient AND c.kind = 'allow' AND c.other = i.sender) AS allowed,
    EXISTS (SELECT 1 FROM sent_before s WHERE s.sender = i.recipient AND s.recipient = i.sender) AS "sentBefore",
    a.unknown_senders AS policy, a.stake,
    (i.device_key IS NULL OR EXISTS (SELECT 1 FROM devices d WHERE d.public_key = i.device_key AND d.address = i.recipient AND d.revoked_at IS NULL)) AS "deviceOk",
    (i.group_id IS NULL OR EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = i.group_id AND m.address = i.recipient)) AS member,
    coalesce(u.envelopes, 0) AS queued, coalesce(u.bytes, 0) AS "queuedBytes",
    coalesce(u.requests, 0) AS requests, coalesce(u.request_bytes, 0) AS "requestBytes", coalesce(p.envelopes, 0) AS pending
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS i(sender, recipient, device_key, group_id, n)
  LEFT JOIN accounts a ON a.address = i.recipient
  LEFT JOIN queue_usage u ON u.recipient = i.recipient AND u.device_key = coalesce(i.device_key, '')
  LEFT JOIN pending_requests p ON p.sender = i.sender AND p.recipient = i.recipient
  ORDER BY i.n`;

/**
 * The recipients of a batch, locked until its commit before its facts are read: the queue and
 * pending-request counters it checks are then the ones it adds to, even when another node sends
 * to the same recipient at the same moment (else both could read room for one and both queue).
 * Taken in hash order, so two batches never wait on each other in a circle; a shared hash only
 * makes two recipients wait for each other. The first key keeps these apart from other locks.
 */
const LOCK_RECIPIENTS = `SELECT count(pg_advisory_xact_lock(${RECIPIENT_LOCKS}, h)) AS locked
  FROM (SELECT DISTINCT hashtext(r) AS h FROM unnest($1::text[]) AS r ORDER BY 1) x`;

/** Every envelope of a batch in one statement, in queue order, and the sent-before facts with them. */
const INSERT = `WITH queued AS (
    INSERT INTO envelopes (id, sender, recipient, device_key, ciphertext, ephemeral_public_key, nonce, created_at, routed, group_id, via, bot_name, stake, wire_head, wire_tail)
    SELECT id, sender, recipient, device_key, ciphertext, epk, nonce, created_at, routed, group_id, via, bot_name, stake, wire_head, wire_tail
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])
      WITH ORDINALITY AS t(id, sender, recipient, device_key, ciphertext, epk, nonce, created_at, routed, group_id, via, bot_name, stake, wire_head, wire_tail, n)
    ORDER BY n
  )
  INSERT INTO sent_before (sender, recipient)
  SELECT DISTINCT s, r FROM unnest($16::text[], $17::text[]) AS p(s, r) ORDER BY 1, 2
  ON CONFLICT DO NOTHING`;

interface Pending {
  d: Delivery;
  resolve: (o: DeliveryOutcome[]) => void;
  reject: (e: unknown) => void;
}

/** What the deliveries of a batch accepted so far add to the counters read at its start. */
class BatchTally {
  /** per recipient device: envelopes and bytes, and of them request-routed ones */
  readonly usage = new Map<string, { n: number; bytes: number; rn: number; rbytes: number }>();
  readonly pending = new Map<string, number>();
  readonly sent = new Set<string>();

  merge(o: BatchTally): void {
    for (const [k, v] of o.usage) {
      const u = this.usage.get(k) ?? { n: 0, bytes: 0, rn: 0, rbytes: 0 };
      this.usage.set(k, { n: u.n + v.n, bytes: u.bytes + v.bytes, rn: u.rn + v.rn, rbytes: u.rbytes + v.rbytes });
    }
    for (const [k, v] of o.pending) this.pending.set(k, (this.pending.get(k) ?? 0) + v);
    for (const k of o.sent) this.sent.add(k);
  }
}

export interface PgEnvelopesPart extends EnvelopesPart {
  /** Transactions committed by the delivery batcher (tests read it to see batching). */
  readonly batches: number;
  /** Statements that answered the acks of more than one request (tests read it). */
  readonly ackBatches: number;
  /** Refuses new deliveries and waits for the queued ones. */
  close(): Promise<void>;
}

/**
 * Routing, queueing, pulling and acknowledging envelopes on PostgreSQL. Deliveries that arrive
 * in the same turn of the event loop share one transaction: one facts query over every item,
 * one multi-row insert, one commit; each is answered only after that commit. A delivery that is
 * refused is left out alone; a failed commit fails the whole batch, and nothing of it is queued.
 */
export function pgEnvelopesPart(sql: PgSql): PgEnvelopesPart {
  const queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let scheduled = false;
  let closed = false;
  let batches = 0;
  const acks = new AckBatcher(sql);

  const pair = (a: string, b: string) => `${a} ${b}`;
  const inboxParams = (address: string, deviceKey: string | null, limit: number): never[] =>
    (deviceKey === null
      ? [address.toLowerCase(), limit]
      : [address.toLowerCase(), limit, deviceKey.toLowerCase()]) as never[];

  /** Routes one delivery against the batch's facts; throws StoreError to refuse it whole. */
  const route = async (
    tx: PgTx,
    d: Delivery,
    facts: ItemFacts[],
    seen: BatchTally,
    mine: BatchTally,
    rows: EnvelopeRow[],
  ): Promise<DeliveryOutcome[]> => {
    const sender = d.senderAddress.toLowerCase();
    const groupId = d.groupId === null ? null : d.groupId.toLowerCase();
    const botName = d.via === 'group-token' ? (d.botName ?? null) : null;
    const opened = new Map<string, Set<string>>();
    const outcomes: DeliveryOutcome[] = [];
    for (const [index, item] of d.items.entries()) {
      const f = facts[index];
      const to = item.toAddress.toLowerCase();
      const deviceKey = item.recipientDeviceKey === null ? null : item.recipientDeviceKey.toLowerCase();
      if (!f.member) throw new StoreError('not-a-member', `${to} is not a member of the group`, index);
      if (!f.deviceOk)
        throw new StoreError('device-key-mismatch', `recipientDeviceKey is not a current device key of ${to}`, index);
      const sentBefore = f.sentBefore || seen.sent.has(pair(to, sender)) || mine.sent.has(pair(to, sender));
      let r: DeliveryOutcome & { stake?: string } =
        groupId === null
          ? routeDirect({
              blockedByRecipient: f.blocked,
              asRequest: item.asRequest,
              allowedByRecipient: f.allowed || sender === to,
              recipientSentBefore: sentBefore,
              recipientPolicy: f.policy ?? 'request',
              recipientStake: f.stake,
            })
          : { routed: f.blocked ? 'blocked' : 'inbox' };
      if (r.routed === 'stake-gate') {
        if (d.stakesEnabled === false) r = { routed: 'request' };
        else if (item.stake) r = await staked(tx, item, d, opened);
      }
      if (r.routed !== 'inbox' && r.routed !== 'request') {
        outcomes.push(r);
        continue;
      }
      const usageKey = pair(to, deviceKey ?? '');
      const pendingKey = pair(sender, to);
      const size = decodedSize(item.ciphertext);
      const request = r.routed === 'request';
      if (d.limits) {
        const u1 = seen.usage.get(usageKey);
        const u2 = mine.usage.get(usageKey);
        const n = f.queued + (u1?.n ?? 0) + (u2?.n ?? 0);
        const bytes = f.queuedBytes + (u1?.bytes ?? 0) + (u2?.bytes ?? 0);
        if (n + 1 > d.limits.maxQueued || bytes + size > d.limits.maxQueuedBytes) {
          throw recipientFull(to, index);
        }
        if (request) {
          // Strangers fill at most half of the quota: the rest stays free for contacts and groups.
          const rn = f.requests + (u1?.rn ?? 0) + (u2?.rn ?? 0);
          const rbytes = f.requestBytes + (u1?.rbytes ?? 0) + (u2?.rbytes ?? 0);
          if (rn + 1 > requestShare(d.limits.maxQueued) || rbytes + size > requestShare(d.limits.maxQueuedBytes))
            throw requestsFull(to, index);
          const pending = f.pending + (seen.pending.get(pendingKey) ?? 0) + (mine.pending.get(pendingKey) ?? 0);
          if (pending + 1 > d.limits.maxRequestsPerPair)
            throw tooManyRequestsPending(to, d.limits.maxRequestsPerPair, index);
        }
      }
      const u = mine.usage.get(usageKey) ?? { n: 0, bytes: 0, rn: 0, rbytes: 0 };
      mine.usage.set(usageKey, {
        n: u.n + 1,
        bytes: u.bytes + size,
        rn: u.rn + (request ? 1 : 0),
        rbytes: u.rbytes + (request ? size : 0),
      });
      if (r.routed === 'request') mine.pending.set(pendingKey, (mine.pending.get(pendingKey) ?? 0) + 1);
      if (groupId === null) mine.sent.add(pair(sender, to));
      const envelope = newEnvelopeRow(d, item, { sender, to, deviceKey, routed: r.routed, groupId, botName });
      if (r.stake) envelope.stake = r.stake;
      rows.push(envelope);
      outcomes.push({ routed: r.routed, envelope });
    }
    return outcomes;
  };

  /** The first envelope records the stake; a replay of its ref is `used`. */
  const staked = async (
    tx: PgTx,
    item: DeliveryItem,
    d: Delivery,
    opened: Map<string, Set<string>>,
  ): Promise<DeliveryOutcome & { stake?: string }> => {
    const look = stakeFirstLook(item, opened);
    if ('answer' in look) return look.answer;
    if (look.record) {
      const st = look.stake;
      const inserted =
        await tx`INSERT INTO stakes (id, ref, chain_id, escrow, sender, recipient, amount_wei, deadline, status, release_signature, created_at)
        VALUES (${st.id}, ${st.ref}, ${st.chainId}, ${st.escrow}, ${st.sender}, ${st.recipient}, ${st.amountWei}, ${st.deadline}, ${st.status}, NULL, ${d.now})
        ON CONFLICT DO NOTHING`;
      if (inserted.count === 0) return STAKE_USED;
    }
    return stakedRequest(item, look, opened);
  };

  type Result = { ok: DeliveryOutcome[] } | { refused: unknown };

  /**
   * A batch's work inside its transaction: its facts (after the recipients' locks), its routing
   * and its insert, returned unawaited so that COMMIT can follow it at once.
   */
  const batchBody = async (
    tx: PgTx,
    batch: Pending[],
  ): Promise<{ results: Result[]; insert: Promise<unknown> | null }> => {
    const senders: string[] = [];
    const recipients: string[] = [];
    const deviceKeys: (string | null)[] = [];
    const groups: (string | null)[] = [];
    for (const { d } of batch) {
      for (const item of d.items) {
        senders.push(d.senderAddress.toLowerCase());
        recipients.push(item.toAddress.toLowerCase());
        deviceKeys.push(item.recipientDeviceKey?.toLowerCase() ?? null);
        groups.push(d.groupId?.toLowerCase() ?? null);
      }
    }
    // Pipelined: one round trip, and the facts statement starts (and takes its snapshot) only
    // once the locks are held.
    const [, facts] = await Promise.all([
      batch.some(({ d }) => d.limits) ? tx.unsafe(LOCK_RECIPIENTS, [recipients] as never[], { prepare: true }) : null,
      tx.unsafe<ItemFacts[]>(FACTS, [senders, recipients, deviceKeys, groups] as never[], { prepare: true }),
    ]);
    const seen = new BatchTally();
    const rows: EnvelopeRow[] = [];
    const results: Result[] = [];
    let at = 0;
    for (const { d } of batch) {
      const own = facts.slice(at, at + d.items.length);
      at += d.items.length;
      const mine = new BatchTally();
      const mark = rows.length;
      try {
        // A delivery that records a stake does so in a savepoint, undone if it is refused later.
        const ok = d.items.some((i) => i.stake && 'ok' in i.stake)
          ? await tx.savepoint((sp) => route(sp, d, own, seen, mine, rows))
          : await route(tx, d, own, seen, mine, rows);
        seen.merge(mine);
        results.push({ ok });
      } catch (e) {
        if (!(e instanceof StoreError)) throw e;
        rows.length = mark;
        results.push({ refused: e });
      }
    }
    let insert: Promise<unknown> | null = null;
    if (rows.length > 0) {
      const sent = [...seen.sent].map((p) => p.split(' '));
      const wire = rows.map(envelopeWireParts);
      insert = tx
        .unsafe(
          INSERT,
          [
            rows.map((e) => e.id),
            rows.map((e) => e.senderAddress),
            rows.map((e) => e.recipientAddress),
            rows.map((e) => e.recipientDeviceKey),
            rows.map((e) => e.ciphertext),
            rows.map((e) => e.ephemeralPublicKey),
            rows.map((e) => e.nonce),
            rows.map((e) => e.createdAt),
            rows.map((e) => e.routed),
            rows.map((e) => e.groupId),
            rows.map((e) => e.via),
            rows.map((e) => e.botName),
            rows.map((e) => e.stake ?? null),
            wire.map((w) => w?.[0] ?? null),
            wire.map((w) => w?.[1] ?? null),
            sent.map((p) => p[0]),
            sent.map((p) => p[1]),
          ] as never[],
          { prepare: true },
        )
        .execute(); // the driver sends a query only once it is awaited or executed
    }
    return { results, insert };
  };

  /**
   * One transaction for a batch in three round trips instead of four: the insert is not waited
   * for inside the transaction, so the driver sends COMMIT right behind it. PostgreSQL runs a
   * connection's statements in order, and a COMMIT after a failed insert only rolls back, so the
   * insert is checked once the transaction has ended: a batch is answered only if both held.
   */
  const runBatch = async (batch: Pending[]): Promise<Result[]> => {
    const { results, insert } = await sql.begin((tx) => batchBody(tx, batch));
    await insert;
    return results;
  };

  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      let results: Result[] | null = null;
      let failure: unknown = null;
      for (let attempt = 1; results === null; attempt++) {
        try {
          results = await runBatch(batch);
        } catch (e) {
          if (attempt < MAX_ATTEMPTS && isRetryable(e)) continue;
          failure = asUnavailable(e);
          break;
        }
      }
      if (results === null) {
        for (const p of batch) p.reject(failure);
        continue;
      }
      batches += 1;
      batch.forEach((p, i) => {
        const r = results[i];
        if ('ok' in r) p.resolve(r.ok);
        else p.reject(r.refused);
      });
    }
  };

  // One batch in flight per node: what arrives meanwhile waits for the next, bigger batch.
  const schedule = () => {
    if (scheduled || running) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      running = flush().finally(() => {
        running = null;
        if (queue.length > 0) schedule();
      });
    });
  };

  return {
    get batches() {
      return batches;
    },
    get ackBatches() {
      return acks.batches;
    },
    deliver(d) {
      if (closed) return Promise.reject(new Error('store is closed'));
      return new Promise<DeliveryOutcome[]>((resolve, reject) => {
        queue.push({ d, resolve, reject });
        schedule();
      });
    },
    async pull(address, deviceKey, limit) {
      const rows = await sql.unsafe<EnvelopeRow[]>(
        deviceKey === null ? PULL.any : PULL.device,
        inboxParams(address, deviceKey, limit),
        { prepare: true },
      );
      // `stake` only on staked requests, as on the wire
      for (const r of rows) if (r.stake === null) delete r.stake;
      return [...rows];
    },
    async pullWire(address, deviceKey, limit) {
      // As raw bytes, decoded here: no row object per pull, and the brackets added by the query
      // rather than by a second string. Measured in the cluster bench: pull p99 7-9 ms instead of
      // 13-14. (Sent on as a Buffer without decoding it was worse, 12-14 ms: each page is then
      // external memory, which V8 counts towards its next full collection.)
      const rows = (await sql
        .unsafe(deviceKey === null ? PULL_WIRE.any : PULL_WIRE.device, inboxParams(address, deviceKey, limit), {
          prepare: true,
        })
        .raw()) as unknown as Buffer[][];
      const page = rows[0][0].toString('utf8');
      // Emptied before we let go of it: the driver's result object outlives its query until V8's
      // next full collection, and with it the ~100 KB socket buffer the page's bytes point into.
      // Those pile up as external memory and trigger full collections every ~150 pulls.
      rows.length = 0;
      return page;
    },
    ack(address, deviceKey, ids) {
      if (closed) return Promise.reject(new Error('store is closed'));
      const unique = [...new Set(ids.map((id) => String(id).toLowerCase()))];
      return acks.ack(address.toLowerCase(), deviceKey === null ? null : deviceKey.toLowerCase(), unique);
    },
    async sweep(cutoff) {
      let total = 0;
      for (;;) {
        // Whichever node holds the lock sweeps; the others find it taken and leave it to that one.
        const n = await sql.begin(async (tx) => {
          const [{ got }] = await tx<{ got: boolean }[]>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS got`;
          if (!got) return -1;
          return (
            await tx`DELETE FROM envelopes WHERE seq IN (SELECT seq FROM envelopes WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${SWEEP_CHUNK})`
          ).count;
        });
        if (n < 0) return total;
        total += n;
        if (n < SWEEP_CHUNK) return total;
      }
    },
    close() {
      closed = true;
      return (async () => {
        while (running || queue.length > 0 || scheduled) await (running ?? new Promise((r) => setImmediate(r)));
        await acks.drain();
      })();
    },
  };
}
