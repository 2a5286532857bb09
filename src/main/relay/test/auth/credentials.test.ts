import { describe, expect, it } from 'vitest';
import { hashSecret, hashesEqual, mintSecret, parseSecret, publicPrefix } from '../../auth/credentials.js';
import { routeDirect } from '../../routing.js';

describe('credentials', () => {
  it('mints 32 random bytes with a checksum, stored only as a hash', () => {
    const a = mintSecret('api-key');
    const b = mintSecret('group-token');
    expect(a.secret).toMatch(/^sk_live_[A-Za-z0-9_-]{49}$/);
    expect(b.secret).toMatch(/^gtk_live_[A-Za-z0-9_-]{49}$/);
    expect(a.hash.equals(hashSecret(a.secret))).toBe(true);
    expect(a.hash.toString('hex')).not.toContain(Buffer.from(a.secret).toString('hex'));
    expect(a.prefix).toBe(publicPrefix(a.secret));
    expect(mintSecret('api-key').secret).not.toBe(a.secret);
  });

  it('refuses malformed or mistyped secrets by their checksum alone', () => {
    const { secret } = mintSecret('api-key');
    expect(parseSecret(secret)).toBe('api-key');
    const typo = secret.slice(0, 20) + (secret[20] === 'A' ? 'B' : 'A') + secret.slice(21);
    expect(parseSecret(typo)).toBeNull();
    expect(parseSecret(secret + 'x')).toBeNull();
    expect(parseSecret('sk_live_short')).toBeNull();
    expect(parseSecret(secret.replace('sk_live_', 'gtk_live_'))).toBeNull();
  });

  it('compares hashes in constant time and by length', () => {
    const h = hashSecret('x');
    expect(hashesEqual(h, hashSecret('x'))).toBe(true);
    expect(hashesEqual(h, hashSecret('y'))).toBe(false);
    expect(hashesEqual(h, h.subarray(1))).toBe(false);
  });
});

describe('routing rules', () => {
  const base = {
    blockedByRecipient: false,
    asRequest: false,
    allowedByRecipient: false,
    recipientSentBefore: false,
    recipientPolicy: 'request' as const,
    recipientStake: null,
  };
  it.each([
    [{}, { routed: 'request' }],
    [{ allowedByRecipient: true }, { routed: 'inbox' }],
    [{ recipientSentBefore: true }, { routed: 'inbox' }],
    [{ allowedByRecipient: true, asRequest: true }, { routed: 'request' }],
    [{ blockedByRecipient: true, allowedByRecipient: true }, { routed: 'blocked' }],
    [{ recipientPolicy: 'stake-gate' }, { routed: 'stake-gate', stakeRequired: '0.01' }],
    [
      { recipientPolicy: 'stake-gate', recipientStake: '2.5', asRequest: true },
      { routed: 'stake-gate', stakeRequired: '2.5' },
    ],
    [{ recipientPolicy: 'stake-gate', allowedByRecipient: true }, { routed: 'inbox' }],
    [{ recipientPolicy: 'block' }, { routed: 'blocked' }],
    [{ recipientPolicy: 'block', asRequest: true }, { routed: 'blocked' }],
    [{ recipientPolicy: 'block', recipientSentBefore: true }, { routed: 'inbox' }],
  ])('%j → %j', (facts, expected) => {
    expect(routeDirect({ ...base, ...(facts as object) })).toEqual(expected);
  });
});
