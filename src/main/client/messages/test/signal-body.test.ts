import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { composeSignal, MAX_RECEIPT_IDS, readBody, readSignal, type SignalBody } from '../message-body.js';

const common = { id: randomUUID(), sentAt: '2025-01-02T03:04:05.000Z' };
const PEER = '0x' + 'ab'.repeat(20);
const DEVICE = 'cd'.repeat(32);
const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
/** What a receiver sees once the vault has added `from` (the signature is checked before). */
const received = (fields: Record<string, unknown>) => ({ ...fields, from: '0x' + '12'.repeat(20) });

describe('receipt and typing bodies', () => {
  it.each<Exclude<SignalBody, { kind: 'group-removed' }>>([
    { kind: 'receipt', of: ids(1), state: 'delivered' },
    { kind: 'receipt', of: ids(MAX_RECEIPT_IDS), state: 'read' },
    { kind: 'typing', state: 'on' },
    { kind: 'typing', state: 'off' },
  ])('round-trips a $kind ($state)', (body) => {
    const m = composeSignal({ ...common, body, to: PEER.toUpperCase().replace('0X', '0x'), device: DEVICE });
    expect(m).toMatchObject({
      id: common.id,
      sentAt: common.sentAt,
      kind: body.kind,
      state: body.state,
      to: PEER,
      device: DEVICE,
    });
    expect(readSignal(received(JSON.parse(JSON.stringify(m))))).toEqual({ ...body, to: PEER, device: DEVICE });
  });

  it('round-trips a group-removed notice, its group id lower-cased; anything but a uuid is malformed', () => {
    const group = randomUUID();
    const body = { kind: 'group-removed', group: group.toUpperCase() } as const;
    const m = composeSignal({ ...common, body, to: PEER, device: DEVICE });
    expect(m).toMatchObject({ kind: 'group-removed', group, to: PEER, device: DEVICE });
    expect(readSignal(received(JSON.parse(JSON.stringify(m))))).toEqual({
      kind: 'group-removed',
      group,
      to: PEER,
      device: DEVICE,
    });
    for (const bad of ['not-a-group', 42, null, undefined])
      expect(readSignal(received({ ...common, kind: 'group-removed', group: bad }))).toBeNull();
  });

  it('a receipt names 1 to 100 message ids: none or 101 are refused on both sides', () => {
    for (const of of [[], ids(MAX_RECEIPT_IDS + 1)]) {
      expect(() => composeSignal({ ...common, body: { kind: 'receipt', of, state: 'read' } })).toThrow(
        /not a valid receipt/,
      );
      expect(readSignal(received({ ...common, kind: 'receipt', of, state: 'read' }))).toBeNull();
    }
  });

  it('ids are lower-cased; anything but a uuid in `of` makes the receipt malformed', () => {
    const id = randomUUID();
    expect(
      readSignal(received({ ...common, kind: 'receipt', of: [id.toUpperCase()], state: 'delivered' })),
    ).toMatchObject({ of: [id] });
    for (const bad of [['not-an-id'], [42], 'a-string', null]) {
      expect(readSignal(received({ ...common, kind: 'receipt', of: bad, state: 'delivered' }))).toBeNull();
    }
  });

  it('an unknown state is refused: "seen" for a receipt, "paused" for typing, a missing one', () => {
    expect(() => composeSignal({ ...common, body: { kind: 'receipt', of: ids(1), state: 'seen' as 'read' } })).toThrow(
      /not a valid receipt/,
    );
    expect(() => composeSignal({ ...common, body: { kind: 'typing', state: 'paused' as 'on' } })).toThrow(
      /not a valid typing/,
    );
    expect(readSignal(received({ ...common, kind: 'receipt', of: ids(1), state: 'seen' }))).toBeNull();
    expect(readSignal(received({ ...common, kind: 'typing', state: 'paused' }))).toBeNull();
    expect(readSignal(received({ ...common, kind: 'typing' }))).toBeNull();
  });

  it('signals are not messages, and messages and unknown kinds are not signals', () => {
    expect(readBody(received({ ...common, kind: 'receipt', of: ids(1), state: 'read' }))).toBeNull();
    expect(readBody(received({ ...common, kind: 'typing', state: 'on' }))).toBeNull();
    expect(readSignal(received({ ...common, kind: 'text', text: 'hi' }))).toBeNull();
    expect(readSignal(received({ ...common, kind: 'reaction', of: ids(1), state: 'on' }))).toBeNull();
    expect(readBody(received({ ...common, kind: 'text', text: 'hi', to: PEER }))).toEqual({
      kind: 'text',
      text: 'hi',
      to: PEER,
      device: null,
      control: null,
      expiresIn: null,
      files: null,
    });
  });

  it('extra fields of a signal are not carried into what the client reads', () => {
    const read = readSignal(received({ ...common, kind: 'typing', state: 'on', text: 'sneaky' }));
    expect(read).toEqual({ kind: 'typing', state: 'on', to: null, device: null });
  });
});
