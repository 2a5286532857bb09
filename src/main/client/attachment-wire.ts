/**
 * The `files` of an `attachment` message (wire-format "Kinds beyond text and request"): what a
 * sender signs for each file, and how a receiver checks it before it fetches anything.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { BLOB_ID_PATTERN, DEFAULT_MAX_BLOB_MIB } from '../../shared/api/blobs.js';

/** Most files one message carries. */
export const MAX_FILES = 10;
/** AES-GCM's tag, which the blob carries after the ciphertext. */
export const GCM_TAG_BYTES = 16;
/**
 * Largest file: its blob (the file plus the GCM tag) must fit the relay's default cap of 25 MiB
 * (relay-contract-2 §5 caps the blob, not the file).
 */
export const MAX_FILE_BYTES = DEFAULT_MAX_BLOB_MIB * 1024 * 1024 - GCM_TAG_BYTES;

export const AttachmentRef = Type.Object({
  blob: Type.String({ pattern: BLOB_ID_PATTERN }),
  /** AES-256-GCM key, 32 bytes in standard base64 */
  key: Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$' }),
  /** 12 bytes in standard base64 */
  nonce: Type.String({ pattern: '^[A-Za-z0-9+/]{16}$' }),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  mime: Type.String({ minLength: 1, maxLength: 255 }),
  size: Type.Integer({ minimum: 1, maximum: MAX_FILE_BYTES }),
  /** SHA-256 of the plaintext file, lower-case hex */
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});
export type AttachmentRef = Static<typeof AttachmentRef>;

const Files = Type.Array(AttachmentRef, { minItems: 1, maxItems: MAX_FILES });
const filesCheck = Compile(Files);

/** The `files` of an opened message, or null when they break the wire format (the message is then dropped). */
export function readFiles(value: unknown): AttachmentRef[] | null {
  if (!filesCheck.Check(value)) return null;
  // names are shown and suggested when saving: no control or format characters, no folders
  return value.map((f) => ({ ...f, name: cleanName(f.name) }));
}

/** A file name as we show and suggest it: the last path part, without control or bidi characters. */
export function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}
