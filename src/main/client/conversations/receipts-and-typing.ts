/**
 * Receipts and typing notices going out (wire format, "Kinds beyond text"): sealed to the
 * peer's certified devices like a message, but never stored and never queued in the outbox.
 * They are worth something only now: one lost while the relay is away is not sent later.
 *
 * Receipts are batched per peer: gathered for 300 ms, then one receipt message a second each
 * (up to 100 ids of one state; the rest waits its turn); typing notices go at once, `on` at most every 3 s. Both use the pacer's
 * background budget, so they never hold up a message.
 *
 * The class is named `Signals` after docs/wire-format.md's name for these kinds ("Signals: kinds receipt and typing"),
 * which also covers the `group-removed` notice to a member just taken out of a group.
 */
import type { ReceiptState } from '../../../shared/domain.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import type { CertifiedDevices, VerifiedDevice } from '../trust/certified-devices.js';
import { MAX_RECEIPT_IDS, composeSignal, type SignalBody } from '../messages/message-body.js';
import type { RelayApi } from '../network/relay-api.js';
import { envelopesFor } from '../messages/sealed-envelopes.js';

export interface SignalsDeps {
  api: () => RelayApi;
  vault: Pick<VaultClient, 'sealMessage'>;
  devices: CertifiedDevices;
  me: () => { address: string; deviceKey: string };
  now: () => number;
}

const RECEIPT_SPACING_MS = 1000;
/** how long a receipt waits for others to the same person before it goes */
const RECEIPT_GATHER_MS = 300;
const TYPING_RENEW_MS = 3000;
/** how long a peer's device list is reused for signals */
const DEVICES_TTL_MS = 30_000;

export class Signals {
  private readonly pending = new Map<string, Record<ReceiptState, Set<string>>>();
  private readonly lastReceiptAt = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly typingOnAt = new Map<string, number>();
  private readonly deviceCache = new Map<string, { at: number; list: VerifiedDevice[] }>();
  private closed = false;

  constructor(private readonly d: SignalsDeps) {}

  /** Queues receipts for the peer's own messages; sent within a second. */
  receipt(peer: string, ids: readonly string[], state: ReceiptState): void {
    if (this.closed || ids.length === 0) return;
    let p = this.pending.get(peer);
    if (!p) this.pending.set(peer, (p = { delivered: new Set(), read: new Set() }));
    for (const id of ids) p[state].add(id.toLowerCase());
    // a read receipt says delivered too
    if (state === 'read') for (const id of ids) p.delivered.delete(id.toLowerCase());
    this.arm(peer);
  }

  /** `on` while composing (renewed at most every 3 s), `off` when sent or cleared. */
  typing(peer: string, state: 'on' | 'off'): Promise<void> {
    const now = this.d.now();
    const onAt = this.typingOnAt.get(peer);
    if (state === 'on') {
      if (onAt !== undefined && now - onAt < TYPING_RENEW_MS) return Promise.resolve();
      this.typingOnAt.set(peer, now);
    } else {
      // nothing to take back
      if (onAt === undefined) return Promise.resolve();
      this.typingOnAt.delete(peer);
    }
    return this.send(peer, [{ kind: 'typing', state }]).catch(() => undefined);
  }

  /**
   * Tells someone we took out of a group, so their app says so in the group's chat instead of
   * failing their next send. A notice only: lost, their next send still learns it from the relay.
   */
  groupRemoved(peer: string, groupId: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.send(peer, [{ kind: 'group-removed', group: groupId }]);
  }

  /** A message went to the peer: it ends the typing on the receiver's side by itself. */
  messageSent(peer: string): void {
    this.typingOnAt.delete(peer);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
  }

  private arm(peer: string): void {
    if (this.timers.has(peer)) return;
    // Even the first waits a moment: a conversation on screen reads what just arrived, and the
    // read receipt then stands for both (each request counts against the relay's 120 a minute).
    const wait = Math.max(
      RECEIPT_GATHER_MS,
      (this.lastReceiptAt.get(peer) ?? -Infinity) + RECEIPT_SPACING_MS - this.d.now(),
    );
    const t = setTimeout(() => {
      this.timers.delete(peer);
      void this.flushReceipts(peer);
    }, wait);
    t.unref?.();
    this.timers.set(peer, t);
  }

  /**
   * Sends one receipt message (wire format: at most one per conversation a second), delivered
   * ones first; whatever else is pending waits its second.
   */
  private async flushReceipts(peer: string): Promise<void> {
    const p = this.pending.get(peer);
    if (!p || this.closed) return;
    this.lastReceiptAt.set(peer, this.d.now());
    const state: ReceiptState = p.delivered.size > 0 ? 'delivered' : 'read';
    const ids = [...p[state]].slice(0, MAX_RECEIPT_IDS);
    for (const id of ids) p[state].delete(id);
    if (p.delivered.size === 0 && p.read.size === 0) this.pending.delete(peer);
    else this.arm(peer);
    await this.send(peer, [{ kind: 'receipt', of: ids, state }]).catch(() => undefined);
  }

  private async send(peer: string, bodies: SignalBody[]): Promise<void> {
    if (bodies.length === 0) return;
    const me = this.d.me();
    const devices = await this.peerDevices(peer);
    if (devices.length === 0) return;
    const envelopes = [];
    for (const body of bodies) {
      const message = composeSignal({
        id: globalThis.crypto.randomUUID(),
        sentAt: new Date(this.d.now()).toISOString(),
        body,
        to: peer,
        device: me.deviceKey,
      });
      const sealed = await this.d.vault.sealMessage({
        frame: 'direct',
        message,
        recipients: devices.map((d) => ({ deviceKey: d.publicKey })),
      });
      envelopes.push(...envelopesFor(sealed.sealed, devices));
    }
    await this.d.api().send(envelopes, 'background');
  }

  private async peerDevices(peer: string): Promise<VerifiedDevice[]> {
    const cached = this.deviceCache.get(peer);
    if (cached && this.d.now() - cached.at < DEVICES_TTL_MS) return cached.list;
    const list = await this.d.devices.fetch(peer, 'background');
    this.deviceCache.set(peer, { at: this.d.now(), list });
    return list;
  }
}
