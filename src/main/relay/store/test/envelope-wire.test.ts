/**
 * The wire JSON a store keeps around an envelope's ciphertext (envelopeWireParts) is, joined
 * with the ciphertext, exactly what presentEnvelope and JSON.stringify write for that row,
 * whatever its texts hold: quotes, backslashes, control characters, astral characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presentEnvelope } from '../../http/present.js';
import { envelopeWireParts } from '../envelope-rows.js';
import type { EnvelopeRow } from '../store.js';

const base64 = fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('base64'));
const text = fc.string({ unit: 'binary', maxLength: 40 });
const stake = fc.record({
  chainId: fc.integer({ min: 1, max: 2 ** 31 }),
  escrow: text,
  id: text,
  amountWei: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  deadline: fc.integer({ min: 0, max: 2 ** 40 }),
  status: text,
});
const row: fc.Arbitrary<EnvelopeRow> = fc.record({
  id: text,
  senderAddress: text,
  recipientAddress: text,
  recipientDeviceKey: fc.option(text),
  ciphertext: base64,
  ephemeralPublicKey: text,
  nonce: text,
  // up to 9999-12-31, the years an ISO date writes with four digits
  createdAt: fc.integer({ min: 0, max: 253_402_300_799_999 }),
  routed: fc.constantFrom('inbox' as const, 'request' as const),
  groupId: fc.option(text),
  via: fc.option(fc.constantFrom('group-token' as const, 'api-key' as const)),
  botName: fc.option(text),
  stake: fc.option(stake.map((s) => JSON.stringify(s))),
});

describe('envelope wire parts', () => {
  it('joined around the ciphertext, are the presented envelope byte for byte', () => {
    fc.assert(
      fc.property(row, (r) => {
        const parts = envelopeWireParts(r);
        expect(parts).not.toBeNull();
        const [head, tail] = parts!;
        expect(head + r.ciphertext + tail).toBe(JSON.stringify(presentEnvelope(r)));
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });

  it('are not made for a ciphertext that JSON would escape: the store then builds that row from its columns', () => {
    const r: EnvelopeRow = { id: 'x', senderAddress: 'a', recipientAddress: 'b', recipientDeviceKey: null, ciphertext: 'c"\\', ephemeralPublicKey: 'k', nonce: 'n', createdAt: 0, routed: 'inbox', groupId: null, via: null, botName: null };
    expect(envelopeWireParts(r)).toBeNull();
    expect(envelopeWireParts({ ...r, ciphertext: 'q83v\n' })).toBeNull();
    expect(envelopeWireParts({ ...r, ciphertext: 'q83v+/==' })).not.toBeNull();
  });
});
