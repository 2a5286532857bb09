import { VaultError } from '../vault-error.js';

/**
 * The sealed plaintext: an 8-byte ASCII tag, a version byte, then (group frames only) the
 * group's uuid as 16 raw bytes, then the payload (payload.ts).
 */
export const FRAME_VERSION = 1;
const TAG_DIRECT = 'RELAYMSG';
const TAG_GROUP = 'RELAYGRP';
const TAG_BYTES = 8;
const HEADER = TAG_BYTES + 1;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export type Frame = { kind: 'direct'; payload: Uint8Array } | { kind: 'group'; groupId: string; payload: Uint8Array };

function ascii(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const DIRECT = ascii(TAG_DIRECT);
const GROUP = ascii(TAG_GROUP);

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function uuidToBytes(uuid: string): Uint8Array {
  if (!isUuid(uuid)) throw new VaultError('bad-request', 'group id must be a uuid');
  const hex = uuid.replace(/-/g, '');
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToUuid(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function buildDirectFrame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + payload.length);
  out.set(DIRECT, 0);
  out[TAG_BYTES] = FRAME_VERSION;
  out.set(payload, HEADER);
  return out;
}

export function buildGroupFrame(groupId: string, payload: Uint8Array): Uint8Array {
  const id = uuidToBytes(groupId);
  const out = new Uint8Array(HEADER + 16 + payload.length);
  out.set(GROUP, 0);
  out[TAG_BYTES] = FRAME_VERSION;
  out.set(id, HEADER);
  out.set(payload, HEADER + 16);
  return out;
}

function startsWith(bytes: Uint8Array, tag: Uint8Array): boolean {
  for (let i = 0; i < tag.length; i++) if (bytes[i] !== tag[i]) return false;
  return true;
}

/** Dispatches on the tag; unknown tag or version, or a truncated frame, is `bad-frame`. */
export function parseFrame(frame: Uint8Array): Frame {
  if (frame.length < HEADER) throw new VaultError('bad-frame', 'frame is shorter than its header');
  const direct = startsWith(frame, DIRECT);
  if (!direct && !startsWith(frame, GROUP)) throw new VaultError('bad-frame', 'unknown frame tag');
  if (frame[TAG_BYTES] !== FRAME_VERSION)
    throw new VaultError('bad-frame', `unknown frame version ${frame[TAG_BYTES]}`);
  if (direct) return { kind: 'direct', payload: frame.subarray(HEADER) };
  if (frame.length < HEADER + 16) throw new VaultError('bad-frame', 'group frame is shorter than its group id');
  return {
    kind: 'group',
    groupId: bytesToUuid(frame.subarray(HEADER, HEADER + 16)),
    payload: frame.subarray(HEADER + 16),
  };
}

/**
 * The frame must agree with the envelope it came in: a group frame only in a group envelope
 * of the same group id, a direct frame only in a direct envelope (groupId null).
 */
export function checkFrameMatchesEnvelope(frame: Frame, envelopeGroupId: string | null | undefined): void {
  const envelopeGroup = envelopeGroupId ?? null;
  if (frame.kind === 'direct') {
    if (envelopeGroup !== null) throw new VaultError('bad-frame', 'a direct frame arrived in a group envelope');
    return;
  }
  if (envelopeGroup === null || envelopeGroup.toLowerCase() !== frame.groupId) {
    throw new VaultError('bad-frame', 'the group frame names another group than its envelope');
  }
}
