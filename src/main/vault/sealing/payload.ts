import { isUuid } from './frames.js';
import { VaultError } from '../vault-error.js';
import { isAddress, recoverPersonalSigner } from '../signing/wallet.js';

/**
 * The payload inside a frame: UTF-8 JSON `{ "m": <string>, "sig": <string> }`. `m` stays a
 * string so that its exact bytes are what the sender signed (EIP-191 personal_sign).
 */

export interface MessageBody {
  id: string;
  kind: string;
  /** lower-case sender wallet address */
  from: string;
  /** ISO 8601 */
  sentAt: string;
  /** set on group messages so a signed message cannot be replayed into another group */
  groupId?: string;
  [field: string]: unknown;
}

export interface ParsedPayload {
  m: MessageBody;
  /** the exact signed text */
  mRaw: string;
  sig: string;
}

export type Via = 'group-token' | 'api-key';

const KIND = /^[a-z][a-z0-9-]{0,31}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const RESERVED = new Set(['id', 'kind', 'from', 'sentAt', 'groupId', 'sig']);

/** Fields each known kind must carry; other kinds pass with the common fields only. */
const KIND_FIELDS: Record<string, string[]> = {
  text: ['text'],
  request: ['note'],
};

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && ISO_8601.test(value) && !Number.isNaN(Date.parse(value));
}

function badPayload(message: string): never {
  throw new VaultError('bad-payload', message);
}

/** Checks the common and per-kind fields of a parsed `m`; throws `bad-payload`. */
export function validateMessageBody(m: unknown): asserts m is MessageBody {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) badPayload('m is not a JSON object');
  const body = m as Record<string, unknown>;
  if (!isUuid(body.id)) badPayload('m.id must be a uuid');
  if (typeof body.kind !== 'string' || !KIND.test(body.kind)) badPayload('m.kind must be a short lower-case word');
  if (!isAddress(body.from)) badPayload('m.from must be an address');
  if (!isIsoDate(body.sentAt)) badPayload('m.sentAt must be an ISO 8601 date-time');
  if (body.groupId !== undefined && !isUuid(body.groupId)) badPayload('m.groupId must be a uuid');
  for (const field of KIND_FIELDS[body.kind] ?? []) {
    if (typeof body[field] !== 'string') badPayload(`a ${body.kind} message needs a string "${field}"`);
  }
}

/**
 * Builds the text `m` for a message the vault is about to sign: the caller gives the kind and
 * its fields (optionally `id` and `sentAt`); the sender address and, for group frames, the
 * group id are set here and may not be overridden.
 */
export function composeMessage(
  input: Record<string, unknown>,
  from: string,
  groupId: string | null,
  now: Date = new Date(),
): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new VaultError('bad-request', 'message must be an object');
  if (input.sig !== undefined) throw new VaultError('bad-request', 'message may not carry sig; the vault signs');
  if (input.from !== undefined && (typeof input.from !== 'string' || input.from.toLowerCase() !== from.toLowerCase())) {
    throw new VaultError('bad-request', 'message.from is set by the vault');
  }
  if (input.groupId !== undefined && (typeof input.groupId !== 'string' || input.groupId.toLowerCase() !== groupId)) {
    throw new VaultError('bad-request', 'message.groupId must match the frame group');
  }
  if (input.id !== undefined && !isUuid(input.id)) throw new VaultError('bad-request', 'message.id must be a uuid');
  if (input.sentAt !== undefined && !isIsoDate(input.sentAt))
    throw new VaultError('bad-request', 'message.sentAt must be ISO 8601');
  const body: Record<string, unknown> = {
    id: typeof input.id === 'string' ? input.id.toLowerCase() : globalThis.crypto.randomUUID(),
    kind: input.kind,
    from: from.toLowerCase(),
    sentAt: input.sentAt ?? now.toISOString(),
  };
  if (groupId !== null) body.groupId = groupId;
  for (const [key, value] of Object.entries(input)) if (!RESERVED.has(key)) body[key] = value;
  try {
    validateMessageBody(body);
  } catch (e) {
    throw new VaultError('bad-request', (e as Error).message);
  }
  return JSON.stringify(body);
}

export function buildPayload(mRaw: string, sig: string): Uint8Array {
  return encoder.encode(JSON.stringify({ m: mRaw, sig }));
}

/** Strict UTF-8, the documented shape, a well-formed signature; throws `bad-payload`. */
export function parsePayload(bytes: Uint8Array): ParsedPayload {
  let outer: unknown;
  try {
    outer = JSON.parse(strictDecoder.decode(bytes));
  } catch {
    badPayload('payload is not UTF-8 JSON');
  }
  if (outer === null || typeof outer !== 'object' || Array.isArray(outer)) badPayload('payload is not a JSON object');
  const { m: mRaw, sig } = outer as Record<string, unknown>;
  if (typeof mRaw !== 'string') badPayload('payload.m must be a string');
  if (typeof sig !== 'string' || !SIGNATURE.test(sig)) badPayload('payload.sig must be 0x + 130 hex');
  let m: unknown;
  try {
    m = JSON.parse(mRaw);
  } catch {
    badPayload('payload.m is not JSON');
  }
  validateMessageBody(m);
  return { m, mRaw, sig };
}

export interface VerifiedAuthor {
  /** the address that signed m (lower case) */
  signer: string;
  /** the address to show as author: m.from */
  author: string;
}

/**
 * The receiver's checks (docs/wire-format.md, Receiver checks): the recovered signer must be m.from, and
 * m.from must be the envelope's sender, except for a bot post (`via === 'group-token'` on a
 * group frame), where the relay names the group creator as sender and the author shown is
 * m.from.
 *
 * `frameGroupId` (the group id from the frame, null for a direct frame; leave it out only when
 * there is no frame) binds m to its conversation: an m that names a group must arrive in that
 * group's frame, and a bot post must name its group, so a bot cannot replay someone's signed
 * message into another group. A direct frame is never a bot post, whatever the relay's `via`.
 * Throws `bad-signature`, `sender-mismatch` or `bad-payload`.
 */
export function verifyPayload(
  payload: ParsedPayload,
  envelopeSenderAddress: string,
  via: Via | null | undefined,
  frameGroupId?: string | null,
): VerifiedAuthor {
  const signer = recoverPersonalSigner(payload.mRaw, payload.sig);
  if (signer === null || signer !== payload.m.from.toLowerCase()) {
    throw new VaultError('bad-signature', 'the signature does not recover to m.from');
  }
  const botPost = via === 'group-token' && frameGroupId !== null;
  if (frameGroupId !== undefined) {
    const named = payload.m.groupId?.toLowerCase() ?? null;
    if (named !== null && named !== frameGroupId)
      throw new VaultError('bad-payload', 'm names another group than its frame');
    if (botPost && named === null) throw new VaultError('bad-payload', 'a bot post must name its group');
  }
  if (!botPost && (!isAddress(envelopeSenderAddress) || envelopeSenderAddress.toLowerCase() !== signer)) {
    throw new VaultError('sender-mismatch', 'm.from is not the envelope sender');
  }
  return { signer, author: signer };
}
