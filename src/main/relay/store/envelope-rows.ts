import type { EnvelopeStake } from '../../../shared/api/stakes.js';
import {
  StoreError,
  type Delivery,
  type DeliveryItem,
  type DeliveryOutcome,
  type EnvelopeRow,
  type StakeRow,
} from './store.js';
import { uuidv7 } from './uuidv7.js';
import { presentEnvelope } from '../http/present.js';

const SURROGATE_PAIRS = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Decoded bytes of a padded base64 ciphertext, exactly as the queue_usage counters' SQL counts
 * them (`length(c) / 4 * 3` less the padding), whatever text a store's caller passes: SQL counts
 * characters where JS counts UTF-16 units, and divides in integers. The delete triggers take off
 * what this added, so the two must agree to the byte.
 */
export function decodedSize(base64: string): number {
  const pairs = base64.match(SURROGATE_PAIRS);
  const chars = base64.length - (pairs === null ? 0 : pairs.length);
  return Math.floor(chars / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}

/** The row a delivery queues for one item, as both stores build it (ids are fresh UUIDv7s). */
export function newEnvelopeRow(
  d: Delivery,
  item: DeliveryItem,
  at: {
    sender: string;
    to: string;
    deviceKey: string | null;
    routed: 'inbox' | 'request';
    groupId: string | null;
    botName: string | null;
  },
): EnvelopeRow {
  return {
    id: uuidv7(d.now),
    senderAddress: at.sender,
    recipientAddress: at.to,
    recipientDeviceKey: at.deviceKey,
    ciphertext: item.ciphertext,
    ephemeralPublicKey: item.ephemeralPublicKey.toLowerCase(),
    nonce: item.nonce,
    createdAt: d.now,
    routed: at.routed,
    groupId: at.groupId,
    via: d.via,
    botName: at.botName,
  };
}

/** Text that JSON writes as it is between quotes: the canonical base64 every checked send carries. */
const PLAIN_JSON_TEXT = /^[A-Za-z0-9+/=]*$/;
/** Where the ciphertext's text starts in a presented envelope's JSON (a value's own quotes are escaped, so only the key matches). */
const CIPHERTEXT_VALUE = '"ciphertext":"';

/**
 * A row's wire Envelope, exactly as presentEnvelope and JSON.stringify write it, in two parts: the
 * JSON before its ciphertext and after it, for a store that keeps them so that a pull only joins
 * `head ‖ ciphertext ‖ tail`; the ciphertext itself is not kept twice. Null when the ciphertext
 * would need escaping (the store's callers may pass any text): the store then builds that row's
 * JSON from its columns.
 */
export function envelopeWireParts(e: EnvelopeRow): [head: string, tail: string] | null {
  if (!PLAIN_JSON_TEXT.test(e.ciphertext)) return null;
  const json = JSON.stringify(presentEnvelope({ ...e, ciphertext: '' }));
  const at = json.indexOf(CIPHERTEXT_VALUE) + CIPHERTEXT_VALUE.length;
  return [json.slice(0, at), json.slice(at)];
}

/** The refusals of the queue quotas (docs/protocol.md §4 Limits), naming the item. */
export const recipientFull = (to: string, index: number) =>
  new StoreError(
    'recipient-full',
    `${to} has too much undelivered mail queued on this relay; nothing was sent, try again after they have caught up`,
    index,
  );
export const tooManyRequestsPending = (to: string, max: number, index: number) =>
  new StoreError(
    'too-many-requests-pending',
    `${to} has not yet picked up ${max} of your contact-request envelopes; nothing was sent`,
    index,
  );

/** A stake already spent: a replay of its ref, or a second envelope for the same recipient device. */
export const STAKE_USED: DeliveryOutcome = { routed: 'stake-gate', stakeStatus: 'used' };

/**
 * The stake-gate route of one staked item, up to the database: an answer already (the check
 * refused it, or this recipient device had the stake earlier in the delivery), or the stake and
 * whether the delivery must still record it (its first device; a later device of the same
 * recipient shares the record). `opened` maps each ref recorded in this delivery to its devices.
 */
export function stakeFirstLook(
  item: DeliveryItem,
  opened: Map<string, Set<string>>,
): { answer: DeliveryOutcome } | { stake: StakeRow; record: boolean } {
  const check = item.stake!;
  if ('refused' in check) return { answer: { routed: 'stake-gate', stakeStatus: check.refused } };
  const devices = opened.get(check.ok.ref);
  if (!devices) return { stake: check.ok, record: true };
  const device = item.recipientDeviceKey ?? '';
  if (devices.has(device)) return { answer: STAKE_USED };
  devices.add(device);
  return { stake: check.ok, record: false };
}

/** The stake's route once recorded (a replay of its ref was answered STAKE_USED): a request carrying the stake as the wire shows it. */
export function stakedRequest(
  item: DeliveryItem,
  look: { stake: StakeRow; record: boolean },
  opened: Map<string, Set<string>>,
): { routed: 'request'; stake: string } {
  const st = look.stake;
  if (look.record) opened.set(st.ref, new Set([item.recipientDeviceKey ?? '']));
  const wire: EnvelopeStake = {
    chainId: st.chainId,
    escrow: st.escrow,
    id: st.id,
    amountWei: st.amountWei,
    deadline: st.deadline,
    status: st.status,
  };
  return { routed: 'request', stake: JSON.stringify(wire) };
}
