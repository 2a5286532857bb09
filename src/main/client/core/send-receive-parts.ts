/** What sending (outbox.ts) and receiving (sync-pass.ts) both work with. */
import type { CertifiedDevices } from '../trust/certified-devices.js';
import type { LocalStore } from '../store/local-store.js';
import type { RelayApi } from '../network/relay-api.js';

/** What the sync pass and the outbox both work with: the relay, the local database, verified devices, and who we are. */
export interface SendReceiveParts {
  /** the signed-in relay client; throws when there is none */
  api: () => RelayApi;
  store: LocalStore;
  devices: CertifiedDevices;
  me: () => { address: string; deviceKey: string };
  now?: () => number;
}
