/**
 * One batch of deliveries inside its transaction on PostgreSQL: the recipients locked, the facts
 * of every item read in one query, each delivery routed and checked against them and against what
 * the deliveries before it in the batch took, and one multi-row insert.
 */
import type { UnknownSenders } from '../../../../../shared/api/account.js';
import { routeDirect } from '../../../routing.js';
import type { PgTx } from '../pg-client.js';
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

/** The namespace (first key) of the per-recipient delivery locks; an invitation takes its recipient's too. */
export const RECIPIENT_LOCKS = 0x71756575; // "queu"

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
    EXISTS (SELECT 1 FROM contacts c WHERE c.owner = i.recipient AND c.kind = 'block' AND c.other IN (i.sender, i.minter)) AS blocked,
    EXISTS (SELECT 1 FROM contacts c WHERE c.owner = i.recipient AND c.kind = 'allow' AND c.other = i.sender) AS allowed,
    EXISTS (SELECT 1 FROM sent_before s WHERE s.sender = i.recipient AND s.recipient = i.sender) AS "sentBefore",
    a.unknown_senders AS policy, a.stake,
    (i.device_key IS NULL OR EXISTS (SELECT 1 FROM devices d WHERE d.public_key = i.device_key AND d.address = i.recipient AND d.revoked_at IS NULL)) AS "deviceOk",
    (i.group_id IS NULL OR EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = i.group_id AND m.address = i.recipient)) AS member,
    coalesce(u.envelopes, 0) AS queued, coalesce(u.bytes, 0) AS "queuedBytes",
    coalesce(u.requests, 0) AS requests, coalesce(u.request_bytes, 0) AS "requestBytes", coalesce(p.envelopes, 0) AS pending
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS i(sender, recipient, device_key, group_id, minter, n)
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

export interface Pending {
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

const pair = (a: string, b: string) => `${a} ${b}`;

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

export type BatchResult = { ok: DeliveryOutcome[] } | { refused: unknown };

/**
 * A batch's work inside its transaction: its facts (after the recipients' locks), its routing
 * and its insert, returned unawaited so that COMMIT can follow it at once.
 */
export const deliverBatch = async (
  tx: PgTx,
  batch: Pending[],
): Promise<{ results: BatchResult[]; insert: Promise<unknown> | null }> => {
  const senders: string[] = [];
  const recipients: string[] = [];
  const deviceKeys: (string | null)[] = [];
  const groups: (string | null)[] = [];
  // a token's minter, whose blocks count like the sender's (group-token sends only)
  const minters: (string | null)[] = [];
  for (const { d } of batch) {
    const minter = d.via === 'group-token' && d.minter ? d.minter.toLowerCase() : null;
    for (const item of d.items) {
      minters.push(minter);
      senders.push(d.senderAddress.toLowerCase());
      recipients.push(item.toAddress.toLowerCase());
      deviceKeys.push(item.recipientDeviceKey?.toLowerCase() ?? null);
      groups.push(d.groupId?.toLowerCase() ?? null);
    }
  }
  // Pipelined: one round trip, and the facts statement starts (and takes its snapshot) only
  // once the locks are held.
  const [, facts] = await Promise.all([
    batch.some(({ d }) => d.limits) ? tx.unsafe(LOCK_RECIPIENTS, [recipients], { prepare: true }) : null,
    tx.unsafe<ItemFacts[]>(FACTS, [senders, recipients, deviceKeys, groups, minters], { prepare: true }),
  ]);
  const seen = new BatchTally();
  const rows: EnvelopeRow[] = [];
  const results: BatchResult[] = [];
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
        ],
        { prepare: true },
      )
      .execute(); // the driver sends a query only once it is awaited or executed
  }
  return { results, insert };
};
