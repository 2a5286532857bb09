/**
 * Safety numbers, verified marks and device notices.
 *
 * Every fresh device list the client fetches (certified-devices.ts: before each direct send,
 * for a sender's unknown device, for Settings) passes through `observe`. The first list seen
 * for a wallet is its baseline; after that, each key that appears or disappears is a notice
 * ("Bob added a new device on …"), and a contact the person had verified loses the mark and
 * is held back: the app asks before the next message goes to them (`assertMaySend`), and a
 * send that discovers the change itself fails with `safety-number-changed` rather than reach
 * the new device unasked. Our own address's notices are Settings' ("a new device of yours").
 *
 * The mark records the contact's device set it was made against. Our own devices are part of
 * the number too, but a change on our side clears the mark on the contact's side, not ours.
 */
import type { ContactTrust, DeviceNotice, SafetyNumberInfo } from '../../../shared/trust.js';
import type { VerifiedDevice } from './certified-devices.js';
import type { LocalStore } from '../store/local-store.js';
import type { FeatureHandlers } from '../core/feature-context.js';
import { MessengerError } from '../core/messenger-error.js';
import { qrRows } from './qr-code.js';
import { isTransient } from '../network/relay-api.js';
import { canonicalKeys, safetyNumber } from './safety-number.js';

export const SAFETY_NUMBER_CHANGED = 'safety-number-changed';

export interface TrustDeps {
  store: LocalStore;
  /** a fresh, certificate-checked device list (which comes back through `observe`) */
  fetchDevices: (address: string) => Promise<VerifiedDevice[]>;
  me: () => { address: string };
  now: () => number;
  onNotice: (n: DeviceNotice) => void;
}

export class Trust {
  constructor(private readonly d: TrustDeps) {}

  handlers(): FeatureHandlers<'contacts.safetyNumber' | 'contacts.verify' | 'contacts.trust'> {
    return {
      'contacts.safetyNumber': (a) => this.safetyNumber(a.address),
      'contacts.verify': (a) => this.verify(a.address, a.verified),
      'contacts.trust': async (a) => this.status(a.address, true),
    };
  }

  /** A freshly fetched device list of `address`: records it, and any change as notices. */
  observe(address: string, devices: readonly VerifiedDevice[]): void {
    const a = address.toLowerCase();
    const keys = canonicalKeys(devices.map((x) => x.publicKey));
    // no devices at all is "not on this relay" (a relay switch, a 404), not a revocation to report
    if (keys.length === 0) return;
    const prev = this.d.store.trust.deviceSet(a);
    if (prev && sameKeys(prev.devices, keys)) return;
    const nowIso = new Date(this.d.now()).toISOString();
    const notices: Array<Omit<DeviceNotice, 'id' | 'address'>> = [];
    if (prev) {
      for (const k of keys.filter((k) => !prev.devices.includes(k))) {
        notices.push({
          change: 'added',
          deviceKey: k,
          at: devices.find((x) => x.publicKey.toLowerCase() === k)?.createdAt || nowIso,
        });
      }
      for (const k of prev.devices.filter((k) => !keys.includes(k)))
        notices.push({ change: 'removed', deviceKey: k, at: nowIso });
    }
    for (const n of this.d.store.trust.recordDevices(a, keys, notices, this.d.now())) this.d.onNotice(n);
  }

  /** The safety number with `address` from both sides' current certified devices (the cached ones when offline). */
  async safetyNumber(address: string): Promise<SafetyNumberInfo> {
    const a = address.toLowerCase();
    const me = this.d.me().address;
    if (a === me) throw new MessengerError('bad-argument', 'a safety number is between you and someone else');
    const [mine, theirs] = await Promise.all([this.devicesOf(me), this.devicesOf(a)]);
    if (theirs.length === 0) throw new MessengerError('not-found', `${a} has no certified device on this relay`);
    const digits = safetyNumber({ address: me, deviceKeys: mine }, { address: a, deviceKeys: theirs });
    const { verified, verifiedAt, changed } = this.status(a);
    return {
      address: a,
      digits,
      qr: qrRows(digits),
      verified,
      verifiedAt,
      changed,
      myDevices: mine.length,
      theirDevices: theirs.length,
    };
  }

  /**
   * Marks the contact verified against the devices they have now, or (false) takes the mark
   * away; either answers a pending "their devices changed" question.
   */
  async verify(address: string, verified: boolean): Promise<SafetyNumberInfo> {
    const a = address.toLowerCase();
    // fetched fresh so that the mark is made against the number the person just compared
    const info = await this.safetyNumber(a);
    const set = this.d.store.trust.deviceSet(a);
    this.d.store.trust.setVerified(a, verified ? (set?.devices ?? []) : null, this.d.now());
    return { ...info, verified, verifiedAt: verified ? new Date(this.d.now()).toISOString() : null, changed: false };
  }

  notices(address: string): DeviceNotice[] {
    return this.d.store.trust.notices(address.toLowerCase());
  }

  /**
   * The mark, a pending change and the notices, read locally. With `recheck` (the app opening
   * the conversation), a verified contact's devices are also fetched again in the background,
   * so that a change is known, and asked about, before the person writes rather than during
   * the send; a change arrives as a `devices.changed` event.
   */
  status(address: string, recheck = false): ContactTrust {
    const a = address.toLowerCase();
    const set = this.d.store.trust.deviceSet(a);
    if (recheck && set?.verifiedDevices) void this.d.fetchDevices(a).catch(() => undefined);
    return {
      address: a,
      verified: set?.verifiedDevices != null,
      verifiedAt: set?.verifiedMs != null ? new Date(set.verifiedMs).toISOString() : null,
      changed: set?.changePending ?? false,
      notices: this.notices(a),
    };
  }

  /** Their devices changed since the person verified them, and the person has not answered yet. */
  holdsBack(address: string): boolean {
    return this.d.store.trust.deviceSet(address.toLowerCase())?.changePending ?? false;
  }

  /** The question the app asks before the first message after such a change (as an error it recognises). */
  assertMaySend(address: string): void {
    if (this.holdsBack(address)) throw changedError(address);
  }

  private async devicesOf(address: string): Promise<string[]> {
    try {
      return (await this.d.fetchDevices(address)).map((x) => x.publicKey);
    } catch (e) {
      const cached = isTransient(e) ? this.d.store.certifiedDevices(address) : [];
      if (cached.length === 0) throw e;
      return cached.map((x) => x.publicKey);
    }
  }
}

export function changedError(address: string): MessengerError {
  return new MessengerError(
    SAFETY_NUMBER_CHANGED,
    `The safety number with ${address.toLowerCase()} changed after you verified it (their devices changed). Verify it again, or confirm that you want to send anyway.`,
  );
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
