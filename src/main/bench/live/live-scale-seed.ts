/**
 * The live-scale bench's wallets, written through the relay store's own API before the relay
 * starts: each receiver a device, an API key bound to it and the sender allowed as a contact,
 * as a sign-in and `PUT /contacts` leave them. Signing 10,000 wallets in over HTTP (two
 * secp256k1 recoveries each on the relay, two signatures in the client) took minutes on this
 * shared 2-core machine and timed out under load; the sign-in is not what this bench measures.
 * The device certificates are not real signatures: nothing on the send, pull or ack path reads them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mintSecret } from '../../relay/auth/credentials.js';
import type { RelayStore } from '../../relay/store/store.js';

export interface SeededWallet {
  address: string;
  deviceKey: string;
  apiKey: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

async function wallet(store: RelayStore, label: string, now: number): Promise<SeededWallet> {
  const address = `0x${hex(20)}`;
  const deviceKey = hex(32);
  await store.addDevice({ publicKey: deviceKey, address, certificate: `0x${hex(65)}`, now });
  const { secret, hash, prefix } = mintSecret('api-key');
  await store.insertApiKey({
    id: randomUUID(),
    address,
    label,
    prefix,
    deviceKey,
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
    hash,
  });
  return { address, deviceKey, apiKey: secret };
}

/** A sender and `count` receivers who each allow it, `concurrency` wallets written at a time. */
export async function seedWallets(
  store: RelayStore,
  count: number,
  concurrency: number,
): Promise<{ sender: SeededWallet; receivers: SeededWallet[] }> {
  const now = Date.now();
  const sender = await wallet(store, 'bench sender', now);
  const receivers: SeededWallet[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const r = await wallet(store, `bench receiver ${i}`, now);
      await store.setContact(r.address, sender.address, 'allow', 'allow');
      receivers.push(r);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { sender, receivers };
}
