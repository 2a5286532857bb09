import type { Delivery, DeliveryItem, RelayStore } from '../store.js';
import { devKey } from './temp-store.js';

/** Sealed-looking fields; the store treats them as opaque. */
export function item(toAddress: string, over: Partial<DeliveryItem> = {}): DeliveryItem {
  return {
    toAddress,
    recipientDeviceKey: null,
    ciphertext: 'q83vASNFZ4mrze8BI0VniavN7wEjRWeJ',
    ephemeralPublicKey: devKey(0xe),
    nonce: 'AAECAwQFBgcICQoL',
    asRequest: false,
    ...over,
  };
}

export function direct(senderAddress: string, items: DeliveryItem[], now = 1_000): Delivery {
  return { senderAddress, groupId: null, via: null, items, now };
}

/** Sends one direct envelope and returns its outcome. */
export async function sendOne(
  store: RelayStore,
  from: string,
  to: string,
  over: Partial<DeliveryItem> = {},
  now = 1_000,
) {
  const [outcome] = await store.deliver(direct(from, [item(to, over)], now));
  return outcome;
}
