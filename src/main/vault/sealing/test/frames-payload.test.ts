import { hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  buildDirectFrame,
  buildGroupFrame,
  bytesToUuid,
  checkFrameMatchesEnvelope,
  parseFrame,
  uuidToBytes,
} from '../frames.js';
import { buildPayload, composeMessage, parsePayload, verifyPayload, type ParsedPayload } from '../payload.js';
import { isVaultError } from '../../vault-error.js';
import { newMnemonic, signPersonalMessage, walletFromMnemonic } from '../../signing/wallet.js';
import { sealVectors } from '../../../test-support/doc-vectors.js';

const GROUP = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER_GROUP = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isVaultError(e) ? e.code : `not a VaultError: ${String(e)}`;
  }
  return undefined;
}

const enc = new TextEncoder();
const alice = walletFromMnemonic(newMnemonic());
const bob = walletFromMnemonic(newMnemonic());
const bot = walletFromMnemonic(newMnemonic());

function signed(
  wallet: { privateKey: Uint8Array; address: string },
  fields: Record<string, unknown>,
  groupId: string | null = null,
): ParsedPayload {
  const m = composeMessage(fields, wallet.address, groupId);
  return parsePayload(buildPayload(m, signPersonalMessage(wallet.privateKey, m)));
}

describe('frames', () => {
  const payload = enc.encode('{"m":"x","sig":"y"}');

  it('builds the documented bytes', () => {
    const direct = buildDirectFrame(payload);
    expect(Buffer.from(direct.subarray(0, 9)).toString('hex')).toBe(
      Buffer.from('RELAYMSG\x01', 'latin1').toString('hex'),
    );
    const group = buildGroupFrame(GROUP.toUpperCase(), payload);
    expect(Buffer.from(group.subarray(0, 25)).toString('hex')).toBe('52454c415947525001' + GROUP.replace(/-/g, ''));
    // the group vector of docs/vectors/seal-vectors.json is such a frame
    const vectorFrame = hexToBytes(sealVectors().vectors[1].frameHex);
    const parsed = parseFrame(vectorFrame);
    expect(parsed.kind).toBe('group');
    expect(parsed.kind === 'group' && parsed.groupId).toBe(GROUP);
    expect(Buffer.from(buildGroupFrame(GROUP, parsed.payload)).equals(Buffer.from(vectorFrame))).toBe(true);
  });

  it('round-trips both kinds', () => {
    const d = parseFrame(buildDirectFrame(payload));
    expect(d.kind).toBe('direct');
    expect(Buffer.from(d.payload).toString()).toBe('{"m":"x","sig":"y"}');
    const g = parseFrame(buildGroupFrame(GROUP, payload));
    expect(g).toMatchObject({ kind: 'group', groupId: GROUP });
    expect(Buffer.from(g.payload).toString()).toBe('{"m":"x","sig":"y"}');
    expect(parseFrame(buildDirectFrame(new Uint8Array(0))).payload).toHaveLength(0);
  });

  it('drops an unknown tag, an unknown version and truncated frames', () => {
    const good = buildDirectFrame(payload);
    const wrongTag = new Uint8Array(good);
    wrongTag.set(enc.encode('RELAYMSH'), 0);
    expect(codeOf(() => parseFrame(wrongTag))).toBe('bad-frame');
    const lower = new Uint8Array(good);
    lower.set(enc.encode('relaymsg'), 0);
    expect(codeOf(() => parseFrame(lower))).toBe('bad-frame');
    for (const version of [0, 2, 255]) {
      const v = new Uint8Array(good);
      v[8] = version;
      expect(codeOf(() => parseFrame(v))).toBe('bad-frame');
      const gv = buildGroupFrame(GROUP, payload);
      gv[8] = version;
      expect(codeOf(() => parseFrame(gv))).toBe('bad-frame');
    }
    expect(codeOf(() => parseFrame(good.subarray(0, 8)))).toBe('bad-frame');
    expect(codeOf(() => parseFrame(new Uint8Array(0)))).toBe('bad-frame');
    expect(codeOf(() => parseFrame(buildGroupFrame(GROUP, payload).subarray(0, 20)))).toBe('bad-frame');
  });

  it("a group frame must name the envelope's group; a direct frame needs a direct envelope", () => {
    const g = parseFrame(buildGroupFrame(GROUP, payload));
    expect(codeOf(() => checkFrameMatchesEnvelope(g, GROUP))).toBeUndefined();
    expect(codeOf(() => checkFrameMatchesEnvelope(g, GROUP.toUpperCase()))).toBeUndefined();
    expect(codeOf(() => checkFrameMatchesEnvelope(g, OTHER_GROUP))).toBe('bad-frame');
    expect(codeOf(() => checkFrameMatchesEnvelope(g, null))).toBe('bad-frame');
    const d = parseFrame(buildDirectFrame(payload));
    expect(codeOf(() => checkFrameMatchesEnvelope(d, null))).toBeUndefined();
    expect(codeOf(() => checkFrameMatchesEnvelope(d, undefined))).toBeUndefined();
    expect(codeOf(() => checkFrameMatchesEnvelope(d, GROUP))).toBe('bad-frame');
  });

  it('converts uuids to their 16 raw bytes and back', () => {
    expect(bytesToUuid(uuidToBytes(GROUP))).toBe(GROUP);
    expect(codeOf(() => uuidToBytes('not-a-uuid'))).toBe('bad-request');
  });
});

describe('payload', () => {
  it("composes m with id, kind, from, sentAt and the kind's fields, and parses it back", () => {
    const p = signed(alice, { kind: 'text', text: 'hello' });
    expect(p.m).toMatchObject({ kind: 'text', from: alice.address, text: 'hello' });
    expect(p.m.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(p.m.sentAt)).not.toBeNaN();
    expect(Object.keys(JSON.parse(p.mRaw)).slice(0, 4)).toEqual(['id', 'kind', 'from', 'sentAt']);
    expect(signed(alice, { kind: 'text', text: 'hi' }, GROUP).m.groupId).toBe(GROUP);
    expect(signed(alice, { kind: 'request', note: 'hi, it is Alice' }).m.note).toBe('hi, it is Alice');
  });

  it('keeps m as the exact signed string', () => {
    const m = `{"id":"${globalThis.crypto.randomUUID()}","kind":"text","from":"${alice.address}","sentAt":"2030-01-01T00:00:00Z","text":"spaced  out",  "extra": 1}`;
    const p = parsePayload(buildPayload(m, signPersonalMessage(alice.privateKey, m)));
    expect(p.mRaw).toBe(m);
    expect(verifyPayload(p, alice.address, null).signer).toBe(alice.address);
  });

  it('refuses what the vault must not sign', () => {
    expect(codeOf(() => composeMessage({ kind: 'text', text: 'x', from: bob.address }, alice.address, null))).toBe(
      'bad-request',
    );
    expect(codeOf(() => composeMessage({ kind: 'text', text: 'x', sig: '0x' }, alice.address, null))).toBe(
      'bad-request',
    );
    expect(codeOf(() => composeMessage({ kind: 'text' }, alice.address, null))).toBe('bad-request');
    expect(codeOf(() => composeMessage({ kind: 'request' }, alice.address, null))).toBe('bad-request');
    expect(codeOf(() => composeMessage({ kind: 'text', text: 'x', id: '1' }, alice.address, null))).toBe('bad-request');
    expect(codeOf(() => composeMessage({ kind: 'text', text: 'x', sentAt: 'yesterday' }, alice.address, null))).toBe(
      'bad-request',
    );
    expect(codeOf(() => composeMessage({ kind: 'text', text: 'x', groupId: OTHER_GROUP }, alice.address, GROUP))).toBe(
      'bad-request',
    );
  });

  it('drops malformed payloads', () => {
    const m = composeMessage({ kind: 'text', text: 'x' }, alice.address, null);
    const sig = signPersonalMessage(alice.privateKey, m);
    const bad = (bytes: Uint8Array) => codeOf(() => parsePayload(bytes));
    expect(bad(new Uint8Array([0xff, 0xfe]))).toBe('bad-payload');
    expect(bad(enc.encode('not json'))).toBe('bad-payload');
    expect(bad(enc.encode('[]'))).toBe('bad-payload');
    expect(bad(enc.encode(JSON.stringify({ m: JSON.parse(m), sig })))).toBe('bad-payload'); // m not a string
    expect(bad(enc.encode(JSON.stringify({ m, sig: '0x00' })))).toBe('bad-payload');
    expect(bad(enc.encode(JSON.stringify({ m: '{"kind":"text","text":"hello"}', sig })))).toBe('bad-payload');
    for (const drop of ['id', 'kind', 'from', 'sentAt', 'text']) {
      const body = JSON.parse(m);
      delete body[drop];
      expect(bad(buildPayload(JSON.stringify(body), sig)), drop).toBe('bad-payload');
    }
    expect(codeOf(() => parsePayload(buildPayload(m, sig)))).toBeUndefined();
  });
});

describe('verifyPayload', () => {
  it('accepts a message signed by its sender', () => {
    const p = signed(alice, { kind: 'text', text: 'hi' });
    expect(verifyPayload(p, alice.address, null)).toEqual({ signer: alice.address, author: alice.address });
    expect(verifyPayload(p, alice.address.toUpperCase().replace('0X', '0x'), null, null).author).toBe(alice.address);
  });

  it('rejects a signature by someone other than m.from', () => {
    const m = JSON.stringify({
      id: globalThis.crypto.randomUUID(),
      kind: 'text',
      from: alice.address,
      sentAt: new Date().toISOString(),
      text: 'forged',
    });
    const p = parsePayload(buildPayload(m, signPersonalMessage(bob.privateKey, m)));
    expect(codeOf(() => verifyPayload(p, alice.address, null))).toBe('bad-signature');
    expect(codeOf(() => verifyPayload(p, bob.address, null))).toBe('bad-signature');
  });

  it('rejects a signature over a different text', () => {
    const p = signed(alice, { kind: 'text', text: 'hi' });
    const altered = { ...p, mRaw: p.mRaw.replace('"hi"', '"ho"'), m: { ...p.m, text: 'ho' } };
    expect(codeOf(() => verifyPayload(altered, alice.address, null))).toBe('bad-signature');
  });

  it('rejects a genuine message forwarded by someone else (m.from != envelope sender)', () => {
    const p = signed(alice, { kind: 'text', text: 'hi' });
    expect(codeOf(() => verifyPayload(p, bob.address, null))).toBe('sender-mismatch');
    expect(codeOf(() => verifyPayload(p, bob.address, 'api-key', null))).toBe('sender-mismatch');
    expect(codeOf(() => verifyPayload(p, 'garbage', null))).toBe('sender-mismatch');
  });

  it('a bot post (via group-token): the relay names the creator as sender, the author shown is m.from', () => {
    const creator = alice;
    const post = signed(bot, { kind: 'text', text: 'build passed' }, GROUP);
    expect(verifyPayload(post, creator.address, 'group-token', GROUP)).toEqual({
      signer: bot.address,
      author: bot.address,
    });
    // without the bot exemption the same post is a mismatch
    expect(codeOf(() => verifyPayload(post, creator.address, 'api-key', GROUP))).toBe('sender-mismatch');
    // the bot's signature still has to hold
    const m = JSON.stringify({ ...post.m, text: 'tampered' });
    expect(
      codeOf(() => verifyPayload({ ...post, m: JSON.parse(m), mRaw: m }, creator.address, 'group-token', GROUP)),
    ).toBe('bad-signature');
  });

  it('a bot post cannot be replayed into another group or into a direct frame', () => {
    const post = signed(bot, { kind: 'text', text: 'hi' }, GROUP);
    expect(codeOf(() => verifyPayload(post, alice.address, 'group-token', OTHER_GROUP))).toBe('bad-payload');
    // a direct frame never comes from a bot token, whatever the relay claims
    const direct = signed(bob, { kind: 'text', text: 'hi' });
    expect(codeOf(() => verifyPayload(direct, alice.address, 'group-token', null))).toBe('sender-mismatch');
    // a group-token post must name its group
    expect(codeOf(() => verifyPayload(direct, alice.address, 'group-token', GROUP))).toBe('bad-payload');
    // and a member's group message names its group too
    expect(
      codeOf(() =>
        verifyPayload(signed(bob, { kind: 'text', text: 'hi' }, GROUP), bob.address, 'api-key', OTHER_GROUP),
      ),
    ).toBe('bad-payload');
  });
});
