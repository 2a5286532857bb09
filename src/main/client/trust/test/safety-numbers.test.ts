/**
 * Safety numbers: the derivation as docs/safety-numbers.md writes it (its vector, published in
 * docs/vectors/safety-number.json, was computed by an independent Python implementation of that
 * text), the QR code against python-qrcode's matrix, and, between real profiles on a real
 * relay, equal numbers on both sides that change when either side adds or revokes a device, the
 * notices, the reset of the verified mark, and the question asked before the first message after
 * a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { SAFETY_NUMBER_ITERATIONS, canonicalKeys, groupDigits, safetyHalf, safetyNumber } from '../safety-number.js';
import decodeQR from 'qr/decode.js';
import { qrRows } from '../qr-code.js';
import type { DeviceNotice } from '../../../../shared/trust.js';
import { cleanup, newProfile, runEntry, startRelay, type Relay } from '../../test/harness.js';
import { safetyNumberVector } from '../../../test-support/doc-vectors.js';

// the vector of docs/vectors/safety-number.json (walked through in docs/test-vectors.md)
const vector = safetyNumberVector();
const [A, B] = vector.sides;

describe('the derivation', () => {
  it('reproduces the documented vector, and both sides get the same 60 digits', () => {
    expect(safetyHalf(A)).toBe(A.half);
    expect(safetyHalf(B)).toBe(B.half);
    expect(safetyNumber(A, B)).toBe(vector.safetyNumber);
    expect(safetyNumber(B, A)).toBe(safetyNumber(A, B));
    expect(groupDigits(safetyNumber(A, B))).toBe(vector.grouped);
    expect(groupDigits(safetyNumber(A, B)).split(' ')).toHaveLength(12);
    expect(SAFETY_NUMBER_ITERATIONS).toBe(vector.iterations);
  });

  it("every step of the documented vector follows from the page's text", () => {
    for (const side of vector.sides) {
      expect(side.sortedKeys).toEqual(canonicalKeys(side.deviceKeys));
      const input = hexToBytes(side.inputHex);
      const expected = concatBytes(
        utf8ToBytes(vector.label),
        new Uint8Array([0]),
        hexToBytes(side.address.slice(2)),
        new Uint8Array([0, side.sortedKeys.length]),
        ...side.sortedKeys.map(hexToBytes),
      );
      expect(bytesToHex(input)).toBe(bytesToHex(expected));
      let h = sha256(input);
      expect(bytesToHex(h)).toBe(side.firstHash);
      for (let i = 1; i < vector.iterations; i++) h = sha256(concatBytes(h, input));
      expect(bytesToHex(h)).toBe(side.finalHash);
      side.chunks.forEach((c, i) => {
        expect(c.bytes).toBe(side.finalHash.slice(i * 10, i * 10 + 10));
        expect(c.value).toBe(Number.parseInt(c.bytes, 16));
        expect(c.digits).toBe(String(c.value % 100_000).padStart(5, '0'));
      });
      expect(side.chunks.map((c) => c.digits).join('')).toBe(side.half);
    }
  });

  it('ignores key order and case, and changes with any device added or removed on either side', () => {
    const base = safetyNumber(A, B);
    expect(safetyNumber({ ...A, deviceKeys: [...A.deviceKeys].reverse().map((k) => k.toUpperCase()) }, B)).toBe(base);
    expect(safetyNumber({ ...A, deviceKeys: [A.deviceKeys[0]] }, B)).not.toBe(base);
    expect(safetyNumber(A, { ...B, deviceKeys: [...B.deviceKeys, 'dd'.repeat(32)] })).not.toBe(base);
    expect(safetyNumber(A, { ...B, address: '0x' + '2e'.repeat(20) })).not.toBe(base);
  });

  it('refuses a side without devices or with a malformed key', () => {
    expect(() => safetyHalf({ address: A.address, deviceKeys: [] })).toThrow(/no certified device/);
    expect(() => safetyHalf({ address: A.address, deviceKeys: ['abc'] })).toThrow(/32 bytes/);
    expect(() => safetyHalf({ address: '0x12', deviceKeys: A.deviceKeys })).toThrow(/wallet address/);
  });
});

describe('the QR code', () => {
  // python-qrcode 7.4 (Debian's python3-qrcode): version 2, level M, mask 2, border 0
  const PYTHON_QRCODE = [
    '1111111001011010001111111',
    '1000001000001001001000001',
    '1011101011110011001011101',
    '1011101011110011101011101',
    '1011101011001111101011101',
    '1000001011010001101000001',
    '1111111010101010101111111',
    '0000000010000111000000000',
    '1011111000100101101111100',
    '1001000001000100010001000',
    '0110011111101001000100101',
    '1001000010111110000101010',
    '1010101101001101100000011',
    '1101010010001110100010010',
    '1001001010101001101110000',
    '1000100001001000010011010',
    '1011001110001010111111011',
    '0000000010001010100011001',
    '1111111001011100101010101',
    '1000001011110110100011010',
    '1011101011010101111110010',
    '1011101010100101011100001',
    '1011101011110101110010001',
    '1000001000010001110011111',
    '1111111011000100111010001',
  ];
  const DIGITS = '123456789012345678901234567890123456789012345678901234567890';

  /** The rows drawn as a bitmap (4-module quiet zone, 4 pixels a module), as a camera would see them. */
  const decode = (rows: string[]): string => {
    const scale = 4;
    const n = (rows.length + 8) * scale;
    const data = new Uint8Array(n * n * 4).fill(255);
    rows.forEach((row, y) =>
      [...row].forEach((m, x) => {
        if (m !== '1') return;
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++)
            data.fill(
              0,
              (((y + 4) * scale + dy) * n + (x + 4) * scale + dx) * 4,
              (((y + 4) * scale + dy) * n + (x + 4) * scale + dx) * 4 + 3,
            );
      }),
    );
    return decodeQR({ width: n, height: n, data });
  };

  it('encodes 60 digits module for module as python-qrcode does (same mask), and a decoder reads them back', () => {
    expect(qrRows(DIGITS, 2)).toEqual(PYTHON_QRCODE);
    expect(decode(qrRows(DIGITS))).toBe(DIGITS);
  });

  it('is a version 2 code (25 modules) with its finder patterns, smaller or larger as the digits need', () => {
    const rows = qrRows(DIGITS);
    expect(rows).toHaveLength(25);
    expect(rows[0].slice(0, 7)).toBe('1111111');
    expect(qrRows('1'.repeat(34))).toHaveLength(21);
    expect(qrRows('1'.repeat(101))).toHaveLength(29);
    expect(() => qrRows('12a')).toThrow(/digits only/);
  });
});

describe('between profiles on a relay', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay();
  });
  afterAll(cleanup);

  it('both sides see one number; a new or revoked device changes it, leaves a notice and resets the mark', async () => {
    const alice = await newProfile(relay.url, { handle: 'alice_sn' });
    const bob = await newProfile(relay.url, { handle: 'bob_sn' });
    const aliceNotices: DeviceNotice[] = [];
    alice.m.on('devices.changed', (n) => aliceNotices.push(n));

    const fromAlice = await alice.m.trust.safetyNumber(bob.address);
    const fromBob = await bob.m.trust.safetyNumber(alice.address);
    expect(fromAlice.digits).toMatch(/^\d{60}$/);
    expect(fromBob.digits).toBe(fromAlice.digits);
    expect(fromAlice.qr).toHaveLength(25);
    expect(fromAlice.verified).toBe(false);

    const marked = await alice.m.trust.verify(bob.address, true);
    expect(marked.verified).toBe(true);
    expect((await alice.m.trust.safetyNumber(bob.address)).verified).toBe(true);
    await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'checked your number');

    // Bob sets up a second computer with the same wallet
    const bob2 = await newProfile(relay.url, { mnemonic: bob.mnemonic! });
    const afterAdd = await alice.m.trust.safetyNumber(bob.address);
    expect(afterAdd.digits).not.toBe(fromAlice.digits);
    expect((await bob.m.trust.safetyNumber(alice.address)).digits).toBe(afterAdd.digits);
    expect(afterAdd.verified).toBe(false);
    expect(afterAdd.changed).toBe(true);
    expect(afterAdd.theirDevices).toBe(2);
    expect(aliceNotices).toEqual([
      expect.objectContaining({ address: bob.address, change: 'added', deviceKey: bob2.deviceKey }),
    ]);
    expect(alice.m.trust.notices(bob.address).map((n) => n.change)).toEqual(['added']);

    // the first message after the change asks first; "send anyway" (verify false) answers it
    expect(() => alice.m.messages.send({ conversationId: `direct:${bob.address}`, text: 'still you?' })).toThrow(
      expect.objectContaining({ code: 'safety-number-changed' }),
    );
    const answered = await alice.m.trust.verify(bob.address, false);
    expect(answered).toMatchObject({ verified: false, changed: false });
    const { outcome } = await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'still you?');
    expect(outcome.state).toBe('sent');
    expect(
      outcome.deliveries
        .filter((d) => !d.own)
        .map((d) => d.deviceKey)
        .sort(),
    ).toEqual([bob.deviceKey, bob2.deviceKey].sort());

    // Bob's first computer hears of the new device of his own (Settings)
    await bob.m.account.listDevices();
    expect(bob.m.trust.notices(bob.address)).toEqual([
      expect.objectContaining({ change: 'added', deviceKey: bob2.deviceKey }),
    ]);

    // verified again, then Bob revokes the second device: the number goes back, a notice, the mark goes
    await alice.m.trust.verify(bob.address, true);
    await bob.m.account.revokeDevice({ publicKey: bob2.deviceKey });
    const afterRevoke = await alice.m.trust.safetyNumber(bob.address);
    expect(afterRevoke.digits).toBe(fromAlice.digits);
    expect(afterRevoke).toMatchObject({ verified: false, changed: true, theirDevices: 1 });
    expect(alice.m.trust.notices(bob.address).map((n) => n.change)).toEqual(['removed', 'added']);

    // Alice adding a device changes the number Bob sees too
    await alice.m.trust.verify(bob.address, false);
    const bobBefore = (await bob.m.trust.safetyNumber(alice.address)).digits;
    await newProfile(relay.url, { mnemonic: alice.mnemonic! });
    expect((await bob.m.trust.safetyNumber(alice.address)).digits).not.toBe(bobBefore);
  }, 180_000);

  it('a send that discovers the change itself fails with the reason instead of reaching the new device', async () => {
    const carol = await newProfile(relay.url);
    const dave = await newProfile(relay.url);
    await carol.m.trust.verify(dave.address, true);
    await newProfile(relay.url, { mnemonic: dave.mnemonic! });
    const { outcome, message } = await carol.m.messages.sendAndWait(`direct:${dave.address}`, 'hello again');
    expect(outcome.state).toBe('failed');
    expect(message).toMatchObject({ state: 'failed', errorCode: 'safety-number-changed' });
    expect(outcome.deliveries).toEqual([]);

    // the CLI says the same, and `verify --off` answers the question
    const shown = await runEntry('cli', ['--profile', carol.dir, 'safety-number', dave.address]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json[0]).toMatchObject({
      address: dave.address,
      verified: false,
      changed: true,
      myDevices: 1,
      theirDevices: 2,
    });
    expect((shown.json[0] as { safetyNumber: string }).safetyNumber).toBe(
      groupDigits((await carol.m.trust.safetyNumber(dave.address)).digits),
    );
    const off = await runEntry('cli', ['--profile', carol.dir, 'verify', dave.address, '--off']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.json[0]).toMatchObject({ verified: false, changed: false });
    expect(carol.m.trust.holdsBack(dave.address)).toBe(false);
  }, 180_000);
});
