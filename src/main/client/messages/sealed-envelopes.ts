/** The envelopes of a sealed message: one per certified device it goes to, direct or group. */
import type { GroupEnvelopeInput } from '../../../shared/api/envelopes.js';
import type { SealedForRecipient } from '../../vault/worker/vault-protocol.js';
import { keepCertified } from '../trust/certified-devices.js';

/** A device a message is sealed to. */
export interface SealTarget {
  address: string;
  deviceKey: string;
}

/**
 * The wire envelope of each sealed copy: `sealed[i]` was sealed for `targets[i]` (the vault
 * keeps the order of the recipients it was given).
 */
export function envelopesFor(sealed: SealedForRecipient[], targets: Array<{ address: string }>): GroupEnvelopeInput[] {
  return sealed.map((s, i) => ({
    toAddress: targets[i].address,
    recipientDeviceKey: s.deviceKey,
    ciphertext: s.ciphertext,
    ephemeralPublicKey: s.ephemeralPublicKey,
    nonce: s.nonce,
  }));
}

/** Every member device of a group whose certificate verifies, except `skipDeviceKey`. */
export function certifiedMemberDevices(
  memberDevices: Record<string, Array<{ publicKey: string; certificate: string; createdAt?: string }>>,
  skipDeviceKey: string | null = null,
): SealTarget[] {
  const out: SealTarget[] = [];
  for (const [member, list] of Object.entries(memberDevices)) {
    for (const d of keepCertified(member, list))
      if (d.publicKey !== skipDeviceKey) out.push({ address: d.address, deviceKey: d.publicKey });
  }
  return out;
}
