/**
 * The PostgreSQL queue's statements a pull runs, whole texts with bound parameters, and with the
 * batched ack's, the set the query-plan tests EXPLAIN.
 */
import { ACK, ACK_MANY } from './pg-acks.js';

const ENVELOPE_COLUMNS = `id, sender AS "senderAddress", recipient AS "recipientAddress", device_key AS "recipientDeviceKey",
  ciphertext, ephemeral_public_key AS "ephemeralPublicKey", nonce, created_at AS "createdAt", routed, group_id AS "groupId", via, bot_name AS "botName", stake`;

/**
 * One row as the wire Envelope, field for field in presentEnvelope's order. A row queued by this
 * version carries its JSON around the ciphertext, written at the send (envelopeWireParts), so a
 * pull only joins three texts a row: building the JSON here from the columns was most of a
 * pull's time (docs/benchmarks.md, cluster). A row without those parts (queued by an earlier
 * version during a rolling upgrade, or with a ciphertext that would need JSON escaping) is built
 * from its columns as before: row_to_json keeps the select's order and writes no spaces,
 * created_at becomes Date#toISOString's text, and a staked request gets `stake` appended.
 * COALESCE evaluates that subquery only for such rows.
 */
const ENVELOPE_JSON = `coalesce(e.wire_head || e.ciphertext || e.wire_tail, (SELECT CASE WHEN e.stake IS NULL THEN w.j ELSE left(w.j, -1) || ',"stake":' || e.stake || '}' END
  FROM (SELECT row_to_json(x)::text AS j FROM (SELECT e.id, e.sender AS "senderAddress", e.recipient AS "recipientAddress",
  e.device_key AS "recipientDeviceKey", e.ciphertext, e.ephemeral_public_key AS "ephemeralPublicKey", e.nonce,
  to_char(timestamp 'epoch' + e.created_at * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  false AS delivered, e.routed, e.group_id AS "groupId", e.via, e.bot_name AS "botName") x) w))`;

/**
 * The first `$2` envelopes a pull sees, oldest first, as a subquery ($1 the recipient, $3 the
 * device): a device's own (envelopes_device_page) and those sealed to no device
 * (envelopes_unbound_page) are two ordered index ranges, each stopping at the page size, merged;
 * a key bound to no device reads only the second.
 *
 * Each page is written so that an inbox index is the only way to its order, whatever the planner
 * estimates. The driver prepares statements, and a connection's cached generic plan estimates a
 * recipient as the table's average: with a few busy recipients (a small team's relay, the bench)
 * `recipient = $1 … ORDER BY seq` looked cheapest by walking the primary key in seq order and
 * filtering, which for a quiet recipient reads the whole queue (docs/benchmarks.md, cluster;
 * pg-query-plans.test.ts). An equality drops its column from the order wanted, leaving
 * `seq`, which the primary key gives too; a range that is an equality in disguise (`>= $1 AND
 * <= $1`: the same rows under any deterministic collation) keeps `recipient` in it, and no other
 * index gives `recipient, seq`.
 */
const UNBOUND_PAGE = `(SELECT * FROM envelopes WHERE device_key IS NULL AND recipient >= $1 AND recipient <= $1 ORDER BY recipient, seq LIMIT $2)`;
const DEVICE_PAGE = `((SELECT * FROM envelopes WHERE device_key = $3 AND recipient >= $1 AND recipient <= $1 ORDER BY recipient, seq LIMIT $2)
  UNION ALL (SELECT * FROM envelopes WHERE device_key IS NULL AND recipient >= $1 AND recipient <= $1 ORDER BY recipient, seq LIMIT $2)
  ORDER BY recipient, seq LIMIT $2)`;
const rowsOf = (page: string) => `SELECT ${ENVELOPE_COLUMNS} FROM ${page} e ORDER BY seq`;
const wireOf = (page: string) =>
  `SELECT '[' || coalesce(string_agg(${ENVELOPE_JSON}, ',' ORDER BY e.seq), '') || ']' AS page FROM ${page} e`;
// Whole statements, parameters bound, rather than tagged templates with nested fragments: a
// query built from fragments left each query's objects alive through every young-generation
// collection (the driver's fragments are pending promises), so that they were promoted and cost
// full collections; the same statement as one text promotes next to nothing (docs/benchmarks.md,
// cluster).
// A key bound to no device pulls only envelopes sealed to no device (docs/protocol.md §10).
export const PULL = { any: rowsOf(UNBOUND_PAGE), device: rowsOf(DEVICE_PAGE) };
export const PULL_WIRE = { any: wireOf(UNBOUND_PAGE), device: wireOf(DEVICE_PAGE) };

/** The queue's statements, each taking ($1 recipient, $2 limit or ids, $3 device), and the batched ack; exported so that tests can EXPLAIN them. */
export const PG_ENVELOPE_SQL = { pull: PULL, pullWire: PULL_WIRE, ack: ACK, ackMany: ACK_MANY } as const;
