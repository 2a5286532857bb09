import { createCipheriv, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSealedFields, decodeBase64, isLowOrderPoint, looksLikePlaintext } from '../../sealed-fields.js';

/** A real seal per docs/wire-format.md (Seal) with node:crypto, independent of the vault's code. */
function sealRandomMessage(): { ciphertext: string; nonce: string; ephemeralPublicKey: string } {
  const recipient = generateKeyPairSync('x25519');
  const eph = generateKeyPairSync('x25519');
  const shared = diffieHellman({ privateKey: eph.privateKey, publicKey: recipient.publicKey });
  const E = eph.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const R = recipient.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const key = Buffer.from(hkdfSync('sha256', shared, Buffer.concat([E, R]), 'relay-seal-v1', 32));
  const nonce = randomBytes(12);
  const frame = Buffer.concat([
    Buffer.from('RELAYMSG\x01'),
    Buffer.from(
      JSON.stringify({
        m: JSON.stringify({ kind: 'text', text: 'x'.repeat(randomInt(0, 400)) }),
        sig: '0x' + '00'.repeat(65),
      }),
    ),
  ]);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  const ct = Buffer.concat([c.update(frame), c.final(), c.getAuthTag()]);
  return { ciphertext: ct.toString('base64'), nonce: nonce.toString('base64'), ephemeralPublicKey: E.toString('hex') };
}

describe('the plaintext check', () => {
  it('never rejects real AES-GCM output: 100,000 sealed messages pass', () => {
    // Sealing 100,000 with fresh key pairs is slow; one real seal per 1,000, the rest random
    // ciphertext bytes of real sizes, which is exactly what GCM output is indistinguishable from.
    let rejected = 0;
    for (let i = 0; i < 100_000; i++) {
      const fields =
        i % 1000 === 0
          ? sealRandomMessage()
          : {
              ciphertext: randomBytes(randomInt(25, 600)).toString('base64'),
              nonce: randomBytes(12).toString('base64'),
              ephemeralPublicKey: randomBytes(32).toString('hex'),
            };
      const r = checkSealedFields(fields, 65536);
      if ('error' in r && r.error.includes('plaintext')) rejected++;
    }
    expect(rejected).toBe(0);
  });

  it('rejects printable text, UTF-8 text, base64 text and JSON', () => {
    expect(looksLikePlaintext(Buffer.from('this is definitely a plaintext message'))).toBe(true);
    expect(looksLikePlaintext(Buffer.from('Привет, как дела? Это обычный текст.'))).toBe(true);
    expect(looksLikePlaintext(randomBytes(64))).toBe(false);
    for (const text of ['{"a":1,"b":[true]}!!'.slice(0, 18), 'aGVsbG8gd29ybGQgaGk=', '[1,2,3,4,5,6,7,8,9]']) {
      const r = checkSealedFields(
        {
          ciphertext: Buffer.from(text).toString('base64'),
          nonce: randomBytes(12).toString('base64'),
          ephemeralPublicKey: randomBytes(32).toString('hex'),
        },
        65536,
      );
      expect('error' in r, text).toBe(true);
    }
  });

  it('decides exactly as a full count does, also near the 90 % line', () => {
    const reference = (bytes: Buffer): boolean => {
      if (bytes.length < 24) return false;
      let texty = 0;
      for (let i = 0; i < bytes.length;) {
        const b = bytes[i];
        if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d) {
          texty++;
          i++;
          continue;
        }
        const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
        let ok = len > 0 && i + len <= bytes.length;
        for (let j = i + 1; ok && j < i + len; j++) ok = (bytes[j] & 0xc0) === 0x80;
        if (ok) {
          texty += len;
          i += len;
        } else i++;
      }
      return texty >= 0.9 * bytes.length;
    };
    let yes = 0;
    for (let i = 0; i < 20_000; i++) {
      const text = Buffer.from('Ünïcödé text, mostly ASCII. '.repeat(20)).subarray(0, randomInt(20, 400));
      const bytes = Buffer.from(text);
      // replace a share of bytes around the 10 % line with random ones, at random places
      const share = randomInt(0, 200) / 1000;
      for (let k = 0; k < bytes.length * share; k++) bytes[randomInt(bytes.length)] = randomInt(256);
      const want = reference(bytes);
      expect(looksLikePlaintext(bytes), bytes.toString('hex')).toBe(want);
      if (want) yes++;
    }
    expect(yes).toBeGreaterThan(2000);
    expect(yes).toBeLessThan(18000);
  });

  it('decodes only canonical standard base64, padding optional', () => {
    expect(decodeBase64('aGk=')?.toString()).toBe('hi');
    expect(decodeBase64('aGk')?.toString()).toBe('hi');
    expect(decodeBase64('aGl=')).toBeNull(); // non-zero trailing bits
    expect(decodeBase64('aG-k')).toBeNull(); // base64url alphabet
    expect(decodeBase64('a')).toBeNull();
    expect(decodeBase64('')?.length).toBe(0);
    for (const bad of ['aGk==', 'aG k=', 'aGk=\n', ' aGk=', 'aG=k', 'aGk=aGk=', 'aGk_', '====', 'aGk=='.repeat(2)])
      expect(decodeBase64(bad), bad).toBeNull();
  });

  it('agrees with a strict reference decoder on random and mutated input', () => {
    const strict = (text: string): string | null => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
      const unpadded = text.replace(/=+$/, '');
      if (unpadded.length % 4 === 1) return null;
      // padding is optional, but when given it is exactly what completes the last quantum
      if (unpadded !== text && text.length % 4 !== 0) return null;
      const hex = Buffer.from(unpadded, 'base64');
      return hex.toString('base64').replace(/=+$/, '') === unpadded ? hex.toString('hex') : null;
    };
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n.';
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = randomBytes(randomInt(0, 40)).toString('base64');
      if (i % 3 === 0) text = text.replace(/=+$/, '');
      for (let m = randomInt(0, 3); m > 0; m--) {
        const at = randomInt(0, text.length + 1);
        text = text.slice(0, at) + alphabet[randomInt(alphabet.length)] + text.slice(at + (i % 2));
      }
      const want = strict(text);
      expect(decodeBase64(text)?.toString('hex') ?? null, JSON.stringify(text)).toBe(want);
      if (want !== null) accepted++;
    }
    expect(accepted).toBeGreaterThan(1000);
  });

  it('knows every small-order X25519 point, canonical or not', () => {
    const p = 2n ** 255n - 19n;
    const le = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex').reverse().toString('hex');
    for (const u of [0n, 1n, p - 1n, p, p + 1n]) expect(isLowOrderPoint(le(u))).toBe(true);
    expect(isLowOrderPoint('e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800')).toBe(true);
    expect(isLowOrderPoint('e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880')).toBe(true);
    expect(isLowOrderPoint('5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157')).toBe(true);
    expect(isLowOrderPoint(le(p - 1n).toUpperCase())).toBe(true);
    expect(isLowOrderPoint(le(p + 2n))).toBe(false);
    expect(isLowOrderPoint(le(2n))).toBe(false);
    // the top bit is ignored, as X25519 ignores it
    for (const u of [0n, 1n, p - 1n]) expect(isLowOrderPoint(le(u | (1n << 255n)))).toBe(true);
    expect(isLowOrderPoint(le(2n | (1n << 255n)))).toBe(false);
    expect(
      isLowOrderPoint(
        generateKeyPairSync('x25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex'),
      ),
    ).toBe(false);
  });
});
