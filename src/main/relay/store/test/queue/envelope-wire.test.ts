/**
 * The wire JSON a store keeps around an envelope's ciphertext (envelopeWireParts) is, joined
 * with the ciphertext, exactly what presentEnvelope and JSON.stringify write for that row,
 * whatever its texts hold: quotes, backslashes, control characters, astral characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopesWire, presentEnvelope } from '../../../http/present.js';
import { envelopeWireParts } from '../../envelope-rows.js';
import type { EnvelopeRow } from '../../store.js';
import { openTempStore } from '../temp-store.js';

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
    const r: EnvelopeRow = {
      id: 'x',
      senderAddress: 'a',
      recipientAddress: 'b',
      recipientDeviceKey: null,
      ciphertext: 'c"\\',
      ephemeralPublicKey: 'k',
      nonce: 'n',
      createdAt: 0,
      routed: 'inbox',
      groupId: null,
      via: null,
      botName: null,
    };
    expect(envelopeWireParts(r)).toBeNull();
    expect(envelopeWireParts({ ...r, ciphertext: 'q83v\n' })).toBeNull();
    expect(envelopeWireParts({ ...r, ciphertext: 'q83v+/==' })).not.toBeNull();
  });
});

/**
 * A woken pull on SQLite may be answered with the rows of the delivery that woke it
 * (envelopesWire) instead of the store's page: the two must be the same text whenever the first
 * is given, and it is refused for what SQLite may write otherwise.
 */
describe('a handed-over page (envelopesWire)', () => {
  const printable = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 1,
    maxLength: 60,
  });

  it("is the SQLite store's wire page of the same rows, byte for byte, for printable texts (quotes and backslashes too)", async () => {
    const t = openTempStore();
    try {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ ciphertext: printable, ephemeralPublicKey: printable, nonce: printable, bound: fc.boolean() }),
            { minLength: 1, maxLength: 4 },
          ),
          async (items) => {
            const to = `0x${(++n).toString(16).padStart(40, '0')}`;
            const device = n.toString(16).padStart(64, 'a');
            await t.store.addDevice({ publicKey: device, address: to, certificate: '0x00', now: 1 });
            const outcomes = await t.store.deliver({
              senderAddress: '0x' + 'f'.repeat(40),
              groupId: null,
              via: null,
              now: 1_795_836_055_896 + n,
              items: items.map((i) => ({
                toAddress: to,
                recipientDeviceKey: i.bound ? device : null,
                ciphertext: i.ciphertext,
                ephemeralPublicKey: i.ephemeralPublicKey,
                nonce: i.nonce,
                asRequest: false,
              })),
            });
            const rows = outcomes.map((o) => o.envelope!);
            expect(envelopesWire(rows)).toBe(await t.store.pullWire(to, device, 100));
          },
        ),
        { numRuns: 150, seed: 20261128 },
      );
    } finally {
      await t.cleanup();
    }
  });

  it('is refused for a row SQLite might write otherwise: text outside printable ASCII, or a stake', () => {
    const r: EnvelopeRow = {
      id: 'x',
      senderAddress: 'a',
      recipientAddress: 'b',
      recipientDeviceKey: null,
      ciphertext: 'q83v',
      ephemeralPublicKey: 'k',
      nonce: 'n',
      createdAt: 0,
      routed: 'inbox',
      groupId: null,
      via: 'group-token',
      botName: 'bot "one" \\ two',
    };
    expect(envelopesWire([r])).toBe(`[${JSON.stringify(presentEnvelope(r))}]`);
    expect(envelopesWire([r, { ...r, botName: 'bøt' }])).toBeNull();
    expect(envelopesWire([{ ...r, nonce: 'n\n' }])).toBeNull();
    expect(envelopesWire([{ ...r, stake: '{"chainId":1}' }])).toBeNull();
  });
});
