import type Database from 'better-sqlite3';
import type { UnknownSenders } from '../../../../shared/api/account.js';
import { routeDirect } from '../../routing.js';
import type { GroupCommit } from './group-commit.js';
import { STAKE_SQL } from './sqlite-stakes.js';
import {
  decodedSize,
  newEnvelopeRow,
  recipientFull,
  STAKE_USED,
  stakedRequest,
  stakeFirstLook,
  tooManyRequestsPending,
} from '../envelope-rows.js';
import { requestsFull } from '../limit-refusals.js';
import {
  requestShare,
  StoreError,
  type Delivery,
  type DeliveryItem,
  type DeliveryOutcome,
  type EnvelopeRow,
  type RoutingFacts,
  type StakeRow,
} from '../store.js';
import type { EnvelopesPart } from '../store-parts.js';

/** Rows a sweep deletes per transaction, so that a large backlog does not hold the write lock for long. */
const SWEEP_CHUNK = 5000;

const ENVELOPE_COLUMNS = `id, sender AS senderAddress, recipient AS recipientAddress, device_key AS recipientDeviceKey,
  ciphertext, ephemeral_public_key AS ephemeralPublicKey, nonce, created_at AS createdAt, routed, group_id AS groupId, via, bot_name AS botName, stake`;

interface FactsRecord {
  blocked: number;
  allowed: number;
  sentBefore: number;
  policy: UnknownSenders | null;
  stake: string | null;
}

/**
 * One row of the pull as the wire Envelope (src/shared/api/envelopes.ts), field for field in
 * presentEnvelope's order; created_at (epoch ms) becomes the same ISO-8601 text as
 * Date#toISOString, since SQLite keeps date-times as integer milliseconds.
 */
const ENVELOPE_JSON_BASE = `json_object('id', id, 'senderAddress', sender, 'recipientAddress', recipient,
  'recipientDeviceKey', device_key, 'ciphertext', ciphertext, 'ephemeralPublicKey', ephemeral_public_key, 'nonce', nonce,
  'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', created_at / 1000.0, 'unixepoch'), 'delivered', json('false'),
  'routed', routed, 'groupId', group_id, 'via', via, 'botName', bot_name)`;
/** A staked request carries `stake`; every other envelope has no such field at all. */
const ENVELOPE_JSON = `CASE WHEN stake IS NULL THEN ${ENVELOPE_JSON_BASE} ELSE json_insert(${ENVELOPE_JSON_BASE}, '$.stake', json(stake)) END`;

/**
 * One page of an inbox, oldest first. A device-bound caller sees its device's and unbound
 * envelopes; a key bound to no device only the unbound ones, since it cannot open what was
 * sealed to a device, and its ack must never remove a device's copy (docs/protocol.md §10).
 */
const INBOX_PAGE = 'FROM envelopes WHERE recipient = ? AND device_key IS NULL ORDER BY seq LIMIT ?';
const DEVICE_INBOX_PAGE =
  'FROM envelopes WHERE recipient = ? AND (device_key = ? OR device_key IS NULL) ORDER BY seq LIMIT ?';

/** The statements behind the routing and the queue; exported so that tests can EXPLAIN them. */
export const ENVELOPE_SQL = {
  facts: `SELECT
      EXISTS (SELECT 1 FROM contacts WHERE owner = :recipient AND kind = 'block' AND other = :sender) AS blocked,
      EXISTS (SELECT 1 FROM contacts WHERE owner = :recipient AND kind = 'allow' AND other = :sender) AS allowed,
      EXISTS (SELECT 1 FROM sent_before WHERE sender = :recipient AND recipient = :sender) AS sentBefore,
      (SELECT unknown_senders FROM accounts WHERE address = :recipient) AS policy,
      (SELECT stake FROM accounts WHERE address = :recipient) AS stake`,
  blocked: `SELECT 1 FROM contacts WHERE owner = :recipient AND kind = 'block' AND other = :sender`,
  currentDevice: `SELECT 1 FROM devices WHERE public_key = ? AND address = ? AND revoked_at IS NULL`,
  isMember: `SELECT 1 FROM group_members WHERE group_id = ? AND address = ?`,
  // Positional: binding thirteen named values from an object cost as much as the insert itself.
  insert: `INSERT INTO envelopes (id, sender, recipient, device_key, ciphertext, ephemeral_public_key, nonce, created_at, routed, group_id, via, bot_name, stake)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  markSent: `INSERT INTO sent_before (sender, recipient) VALUES (?, ?) ON CONFLICT DO NOTHING`,
  pullAll: `SELECT ${ENVELOPE_COLUMNS} ${INBOX_PAGE}`,
  pullDevice: `SELECT ${ENVELOPE_COLUMNS} ${DEVICE_INBOX_PAGE}`,
  // One JSON text per row, joined in JS: an aggregate over the page would need its own sort
  // (group_concat keeps no order of its input without one), which cost half again as much.
  pullAllJson: `SELECT ${ENVELOPE_JSON} ${INBOX_PAGE}`,
  pullDeviceJson: `SELECT ${ENVELOPE_JSON} ${DEVICE_INBOX_PAGE}`,
  ackAll: `DELETE FROM envelopes WHERE id = ? AND recipient = ? AND device_key IS NULL`,
  ackDevice: `DELETE FROM envelopes WHERE id = ? AND recipient = ? AND (device_key = ? OR device_key IS NULL)`,
  sweep: `DELETE FROM envelopes WHERE seq IN (SELECT seq FROM envelopes WHERE created_at < ? LIMIT ?)`,
  usage: `SELECT envelopes, bytes, requests, request_bytes AS requestBytes FROM queue_usage WHERE recipient = ? AND device_key = ?`,
  pendingRequests: `SELECT envelopes FROM pending_requests WHERE sender = ? AND recipient = ?`,
  // A delivery's additions, once per recipient device and per recipient (migration 7 dropped the
  // per-row insert triggers); an ack or a sweep still takes its rows off through the delete triggers.
  addUsage: `INSERT INTO queue_usage (recipient, device_key, envelopes, bytes, requests, request_bytes) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT DO UPDATE SET envelopes = envelopes + excluded.envelopes, bytes = bytes + excluded.bytes,
      requests = requests + excluded.requests, request_bytes = request_bytes + excluded.request_bytes`,
  addPending: `INSERT INTO pending_requests (sender, recipient, envelopes) VALUES (?, ?, ?)
    ON CONFLICT DO UPDATE SET envelopes = envelopes + excluded.envelopes`,
} as const;

interface QueueUsage {
  envelopes: number;
  bytes: number;
  requests: number;
  requestBytes: number;
}
const NOTHING_QUEUED: QueueUsage = { envelopes: 0, bytes: 0, requests: 0, requestBytes: 0 };

/** One recipient device's counters as a delivery found them (read at its first check there) and what the delivery adds. */
interface QueueTally extends QueueUsage {
  to: string;
  device: string;
  before: QueueUsage | null;
}

/** The sender's pending requests to one recipient as the delivery found them, and its own. */
interface PendingTally {
  before: number | null;
  added: number;
}

/** A recipient's routing facts for the delivery, and whether the delivery queued anything for it (the sender is then known to it). */
type DirectFacts = Omit<RoutingFacts, 'asRequest'> & { queued?: true };

/** Routing, queueing, pulling and acknowledging envelopes. */
export function envelopesPart(db: Database.Database, commit: GroupCommit): EnvelopesPart {
  const s = {
    facts: db.prepare<[{ recipient: string; sender: string }], FactsRecord>(ENVELOPE_SQL.facts),
    blocked: db.prepare<[{ recipient: string; sender: string }], number>(ENVELOPE_SQL.blocked).pluck(),
    currentDevice: db.prepare<[string, string], number>(ENVELOPE_SQL.currentDevice).pluck(),
    isMember: db.prepare<[string, string], number>(ENVELOPE_SQL.isMember).pluck(),
    insert: db.prepare<
      [
        string,
        string,
        string,
        string | null,
        string,
        string,
        string,
        number,
        'inbox' | 'request',
        string | null,
        EnvelopeRow['via'],
        string | null,
        string | null,
      ]
    >(ENVELOPE_SQL.insert),
    insertStake: db.prepare<[StakeRow]>(STAKE_SQL.insertStake),
    markSent: db.prepare<[string, string]>(ENVELOPE_SQL.markSent),
    pullAll: db.prepare<[string, number], EnvelopeRow>(ENVELOPE_SQL.pullAll),
    pullDevice: db.prepare<[string, string, number], EnvelopeRow>(ENVELOPE_SQL.pullDevice),
    pullAllJson: db.prepare<[string, number], string>(ENVELOPE_SQL.pullAllJson).pluck(),
    pullDeviceJson: db.prepare<[string, string, number], string>(ENVELOPE_SQL.pullDeviceJson).pluck(),
    ackAll: db.prepare<[string, string]>(ENVELOPE_SQL.ackAll),
    ackDevice: db.prepare<[string, string, string]>(ENVELOPE_SQL.ackDevice),
    sweep: db.prepare<[number, number]>(ENVELOPE_SQL.sweep),
    usage: db.prepare<[string, string], QueueUsage>(ENVELOPE_SQL.usage),
    pendingRequests: db.prepare<[string, string], number>(ENVELOPE_SQL.pendingRequests).pluck(),
    addUsage: db.prepare<[string, string, number, number, number, number]>(ENVELOPE_SQL.addUsage),
    addPending: db.prepare<[string, string, number]>(ENVELOPE_SQL.addPending),
  };

  const readFacts = (sender: string, recipient: string): DirectFacts => {
    const f = s.facts.get({ recipient, sender })!;
    return {
      blockedByRecipient: f.blocked === 1,
      // A wallet writing to its own other devices is not a stranger to itself.
      allowedByRecipient: f.allowed === 1 || sender === recipient,
      recipientSentBefore: f.sentBefore === 1,
      recipientPolicy: f.policy ?? 'request',
      recipientStake: f.stake,
    };
  };

  /**
   * A stake-gated envelope with a verified stake becomes a request that carries it. The first
   * envelope of a delivery records the stake (its ref is unique: a replay inserts nothing and
   * is `used`); further envelopes of the same delivery may carry it to the recipient's other
   * devices, one each.
   */
  const stakedRoute = (
    item: DeliveryItem,
    d: Delivery,
    opened: Map<string, Set<string>>,
  ): { routed: 'request'; stake: string } | DeliveryOutcome => {
    const look = stakeFirstLook(item, opened);
    if ('answer' in look) return look.answer;
    if (look.record && s.insertStake.run({ ...look.stake, createdAt: d.now }).changes === 0) return STAKE_USED;
    return stakedRequest(item, look, opened);
  };

  /**
   * Runs inside the group-commit transaction, in its own savepoint: a throw undoes the whole
   * delivery. Each fact is read once per recipient (device) of the delivery, not per envelope,
   * and the delivery's own envelopes are counted here as it goes, so that one request cannot pass
   * a quota by splitting itself into many envelopes; the counters are written once per recipient
   * device at the end (docs/protocol.md §4 Limits), in the same savepoint as the rows.
   */
  const deliverNow = (d: Delivery): DeliveryOutcome[] => {
    const sender = d.senderAddress.toLowerCase();
    const groupId = d.groupId === null ? null : d.groupId.toLowerCase();
    // Only a group-token send names a bot, whatever a caller passes.
    const botName = d.via === 'group-token' ? (d.botName ?? null) : null;
    // A token's post answers for its minter too: one who is blocked reaches no one through it.
    const minter = d.via === 'group-token' && d.minter ? d.minter.toLowerCase() : null;
    let opened: Map<string, Set<string>> | undefined;
    const facts = new Map<string, DirectFacts>();
    const blocks = new Map<string, boolean>();
    const members = new Set<string>();
    const devices = new Set<string>();
    const queued = new Map<string, QueueTally>();
    const pending = new Map<string, PendingTally>();
    const outcomes = d.items.map((item, index): DeliveryOutcome => {
      const to = item.toAddress.toLowerCase();
      const deviceKey = item.recipientDeviceKey === null ? null : item.recipientDeviceKey.toLowerCase();
      if (groupId !== null && !members.has(to)) {
        if (s.isMember.get(groupId, to) === undefined)
          throw new StoreError('not-a-member', `${to} is not a member of the group`, index);
        members.add(to);
      }
      if (deviceKey !== null && !devices.has(deviceKey + to)) {
        if (s.currentDevice.get(deviceKey, to) === undefined)
          throw new StoreError('device-key-mismatch', `recipientDeviceKey is not a current device key of ${to}`, index);
        devices.add(deviceKey + to);
      }
      let route: DeliveryOutcome & { stake?: string };
      let f: DirectFacts | undefined;
      if (groupId === null) {
        f = facts.get(to);
        if (f === undefined) facts.set(to, (f = readFacts(sender, to)));
        route = routeDirect({ ...f, asRequest: item.asRequest });
      } else {
        let blocked = blocks.get(to);
        if (blocked === undefined) {
          blocked =
            s.blocked.get({ recipient: to, sender }) !== undefined ||
            (minter !== null && s.blocked.get({ recipient: to, sender: minter }) !== undefined);
          blocks.set(to, blocked);
        }
        route = { routed: blocked ? 'blocked' : 'inbox' };
      }
      if (route.routed === 'stake-gate') {
        // docs/protocol.md §9: without a chain nobody can pay, so the gate lets requests through
        if (d.stakesEnabled === false) route = { routed: 'request' };
        else if (item.stake) route = stakedRoute(item, d, (opened ??= new Map()));
      }
      if (route.routed !== 'inbox' && route.routed !== 'request') return route;
      const request = route.routed === 'request';
      if (f !== undefined) f.queued = true;
      const device = deviceKey ?? '';
      let q = queued.get(device + to);
      if (q === undefined)
        queued.set(
          device + to,
          (q = { to, device, before: null, envelopes: 0, bytes: 0, requests: 0, requestBytes: 0 }),
        );
      let p = request ? pending.get(to) : undefined;
      if (request && p === undefined) pending.set(to, (p = { before: null, added: 0 }));
      const size = decodedSize(item.ciphertext);
      if (d.limits) {
        const used = (q.before ??= s.usage.get(to, device) ?? NOTHING_QUEUED);
        if (
          used.envelopes + q.envelopes + 1 > d.limits.maxQueued ||
          used.bytes + q.bytes + size > d.limits.maxQueuedBytes
        ) {
          throw recipientFull(to, index);
        }
        if (p !== undefined) {
          // Strangers fill at most half of the quota: the rest stays free for contacts and groups.
          if (
            used.requests + q.requests + 1 > requestShare(d.limits.maxQueued) ||
            used.requestBytes + q.requestBytes + size > requestShare(d.limits.maxQueuedBytes)
          ) {
            throw requestsFull(to, index);
          }
          if ((p.before ??= s.pendingRequests.get(sender, to) ?? 0) + p.added + 1 > d.limits.maxRequestsPerPair)
            throw tooManyRequestsPending(to, d.limits.maxRequestsPerPair, index);
        }
      }
      q.envelopes += 1;
      q.bytes += size;
      if (p !== undefined) {
        q.requests += 1;
        q.requestBytes += size;
        p.added += 1;
      }
      const envelope = newEnvelopeRow(d, item, { sender, to, deviceKey, routed: route.routed, groupId, botName });
      if (route.stake) envelope.stake = route.stake;
      const e = envelope;
      s.insert.run(
        e.id,
        e.senderAddress,
        e.recipientAddress,
        e.recipientDeviceKey,
        e.ciphertext,
        e.ephemeralPublicKey,
        e.nonce,
        e.createdAt,
        e.routed,
        e.groupId,
        e.via,
        e.botName,
        e.stake ?? null,
      );
      return { routed: route.routed, envelope };
    });
    for (const q of queued.values()) s.addUsage.run(q.to, q.device, q.envelopes, q.bytes, q.requests, q.requestBytes);
    for (const [to, p] of pending) s.addPending.run(sender, to, p.added);
    // Only direct sends that were queued make the sender known to the recipient.
    for (const [to, f] of facts) if (f.queued) s.markSent.run(sender, to);
    return outcomes;
  };

  return {
    deliver(d) {
      return commit.run(() => deliverNow(d));
    },
    async pull(address, deviceKey, limit) {
      const a = address.toLowerCase();
      const rows = deviceKey === null ? s.pullAll.all(a, limit) : s.pullDevice.all(a, deviceKey.toLowerCase(), limit);
      // `stake` only on staked requests, as on the wire
      for (const r of rows) if (r.stake === null) delete r.stake;
      return rows;
    },
    async pullWire(address, deviceKey, limit) {
      const a = address.toLowerCase();
      const rows =
        deviceKey === null ? s.pullAllJson.all(a, limit) : s.pullDeviceJson.all(a, deviceKey.toLowerCase(), limit);
      return `[${rows.join(',')}]`;
    },
    ack(address, deviceKey, ids) {
      const a = address.toLowerCase();
      const dk = deviceKey === null ? null : deviceKey.toLowerCase();
      const unique = [...new Set(ids.map((id) => String(id).toLowerCase()))];
      return commit.run(() => {
        let acked = 0;
        for (const id of unique) acked += (dk === null ? s.ackAll.run(id, a) : s.ackDevice.run(id, a, dk)).changes;
        return acked;
      });
    },
    async sweep(cutoff) {
      let total = 0;
      for (;;) {
        const n = s.sweep.run(cutoff, SWEEP_CHUNK).changes;
        total += n;
        if (n < SWEEP_CHUNK) return total;
        // Let queued sends commit between chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
