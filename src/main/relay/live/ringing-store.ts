import type { RelayStore } from '../store/store.js';
import type { Doorbell, Recipient } from './doorbell.js';

/**
 * Rings the doorbell for every envelope a delivery queued, once the store's promise has
 * settled, which the group commit does only after its COMMIT: a pull woken by the ring
 * always finds the envelope. Direct and group sends both go through `deliver`.
 */
export function withDoorbell(store: RelayStore, doorbell: Doorbell): RelayStore {
  return Object.assign(Object.create(store) as RelayStore, {
    async deliver(d: Parameters<RelayStore['deliver']>[0]) {
      const outcomes = await store.deliver(d);
      const recipients: Recipient[] = [];
      for (const o of outcomes)
        if (o.envelope)
          recipients.push({
            address: o.envelope.recipientAddress,
            deviceKey: o.envelope.recipientDeviceKey,
            envelope: o.envelope,
          });
      doorbell.ring(recipients);
      return outcomes;
    },
  });
}
