// Named for what it does: a store rings the doorbell after a commit, and held pulls waiting at the door answer.
import type { EnvelopeRow } from '../store/store.js';
import type { RemoteHold } from './waiters.js';

/**
 * The wake-up behind long-poll pulls. A store rings it for the recipients of envelopes it has
 * COMMITTED (never before: a woken pull must find what woke it); held pulls listen. In one
 * process the ring goes straight to the listeners; a clustered store can implement the same
 * interface over its database's notifications and ring listeners on every node.
 */
export interface Recipient {
  /** lower-case wallet address */
  address: string;
  /** lower-case device key the envelope is sealed for; null for an unbound envelope */
  deviceKey: string | null;
  /** the envelope as committed, when the ring comes from this process's own delivery (never sent to other nodes) */
  envelope?: EnvelopeRow;
}

export interface Doorbell {
  /** Tells every listener (on every node, for a clustered doorbell) that these recipients have new envelopes. */
  ring(recipients: readonly Recipient[]): void;
  /** Adds a listener; the returned function removes it. */
  listen(listener: (recipients: readonly Recipient[]) => void): () => void;
  /**
   * A clustered doorbell also keeps "one held pull per credential" cluster-wide. `held` announces
   * that a pull of the credential is now held on this node, registered at `hold` (ms since the
   * epoch); `onHeld` listeners hear the other nodes' announcements, with `outranks` saying whether
   * the announcing node wins a tie (see WaiterRegistry.heard). A single process needs neither.
   * With `wallet`, the announcement also says whose pull it is and until when it waits at most, for
   * the cap of held pulls per wallet, which `onWalletHeld` listeners hear (WaiterRegistry.heardWallet).
   */
  held?(keyId: string, hold: number, wallet?: { address: string; until: number }): void;
  onHeld?(listener: (keyId: string, hold: number, outranks: boolean) => void): () => void;
  onWalletHeld?(listener: (pull: RemoteHold) => void): () => void;
}

/** The doorbell of a relay that runs as one process. */
export class LocalDoorbell implements Doorbell {
  readonly #listeners = new Set<(recipients: readonly Recipient[]) => void>();

  ring(recipients: readonly Recipient[]): void {
    if (recipients.length === 0) return;
    for (const l of this.#listeners) l(recipients);
  }

  listen(listener: (recipients: readonly Recipient[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
