import { StoreError, type Delivery, type DeliveryItem, type EnvelopeRow } from './store.js';
import { uuidv7 } from './uuidv7.js';

/** Decoded bytes of a padded base64 ciphertext, as the queue_usage counters count them. */
export const decodedSize = (base64: string) => (base64.length / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

/** The row a delivery queues for one item, as both stores build it (ids are fresh UUIDv7s). */
export function newEnvelopeRow(
  d: Delivery,
  item: DeliveryItem,
  at: { sender: string; to: string; deviceKey: string | null; routed: 'inbox' | 'request'; groupId: string | null; botName: string | null },
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

/** The refusals of relay-contract-2 §2's queue quotas, naming the item. */
export const recipientFull = (to: string, index: number) =>
  new StoreError('recipient-full', `${to} has too much undelivered mail queued on this relay; nothing was sent, try again after they have caught up`, index);
export const tooManyRequestsPending = (to: string, max: number, index: number) =>
  new StoreError('too-many-requests-pending', `${to} has not yet picked up ${max} of your contact-request envelopes; nothing was sent`, index);
