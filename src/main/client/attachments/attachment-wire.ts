/**
 * The `files` of an `attachment` message (docs/wire-format.md, Files): what a
 * sender signs for each file, and how a receiver checks it before it fetches anything.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { BLOB_ID_PATTERN } from '../../../shared/api/blobs.js';
import { MAX_FILES, MAX_FILE_BYTES, PREVIEW_MAX_CHARS, PREVIEW_PATTERN } from '../../../shared/attachments.js';

export { GCM_TAG_BYTES, MAX_FILES, MAX_FILE_BYTES } from '../../../shared/attachments.js';

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
  /** an image's downscaled preview made by the sender, shown before the file is fetched */
  preview: Type.Optional(Type.String({ pattern: PREVIEW_PATTERN, maxLength: PREVIEW_MAX_CHARS })),
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
