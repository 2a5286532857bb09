import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { signDeviceCertificate, verifyDeviceCertificates } from '../../../vault/signing/device-certificate.js';
import type { CertificateToCheck } from '../../../vault/worker/vault-protocol.js';
import { addressFromPrivateKey } from '../../../vault/signing/wallet.js';
import { verifyInParallel } from '../certified-devices.js';
import { certifiedMemberDevices } from '../../messages/sealed-envelopes.js';

/** `members` wallets with two devices each; the first device of every third member carries another wallet's signature. */
function groupDevices(members: number): {
  devices: Record<string, Array<{ publicKey: string; certificate: string }>>;
  forged: Set<string>;
} {
  const devices: Record<string, Array<{ publicKey: string; certificate: string }>> = {};
  const forged = new Set<string>();
  const stranger = secp256k1.utils.randomSecretKey();
  for (let i = 0; i < members; i++) {
    const key = secp256k1.utils.randomSecretKey();
    const address = addressFromPrivateKey(key);
    devices[address] = [0, 1].map((d) => {
      const publicKey = bytesToHex(secp256k1.utils.randomSecretKey());
      const bad = d === 0 && i % 3 === 0;
      if (bad) forged.add(publicKey);
      return { publicKey, certificate: signDeviceCertificate(bad ? stranger : key, publicKey, address) };
    });
  }
  return { devices, forged };
}

describe('certificate checks split with the vault worker', () => {
  it('hands half of many unseen certificates to the vault; forged ones stay out either way', async () => {
    const { devices, forged } = groupDevices(12);
    const asked: CertificateToCheck[][] = [];
    await verifyInParallel(devices, {
      verifyCertificates: async ({ certificates }) => {
        asked.push(certificates);
        return verifyDeviceCertificates(certificates);
      },
    });
    expect(asked.map((a) => a.length)).toEqual([12]);
    const kept = certifiedMemberDevices(devices).map((t) => t.deviceKey);
    expect(kept).toHaveLength(24 - forged.size);
    for (const key of forged) expect(kept).not.toContain(key);
    // memoised now: nothing left to hand out
    await verifyInParallel(devices, { verifyCertificates: async () => Promise.reject(new Error('not asked again')) });
  });

  it('a vault that fails or answers wrongly leaves the checks to this thread', async () => {
    for (const vault of [
      { verifyCertificates: async () => Promise.reject(new Error('vault restarting')) },
      { verifyCertificates: async () => [true] },
    ]) {
      const { devices, forged } = groupDevices(12);
      await verifyInParallel(devices, vault);
      const kept = certifiedMemberDevices(devices).map((t) => t.deviceKey);
      expect(kept).toHaveLength(24 - forged.size);
      for (const key of forged) expect(kept).not.toContain(key);
    }
  });

  it('a few unseen certificates are not worth a round trip', async () => {
    const { devices } = groupDevices(3);
    let calls = 0;
    await verifyInParallel(devices, {
      verifyCertificates: async ({ certificates }) => (calls++, verifyDeviceCertificates(certificates)),
    });
    expect(calls).toBe(0);
    expect(certifiedMemberDevices(devices).length).toBe(5);
  });
});
