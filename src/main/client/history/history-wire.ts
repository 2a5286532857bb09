/**
 * The fields of a `history` message (wire format, "History on a new device"): what one device
 * of a wallet signs when it hands its history to another device of the same wallet, and how
 * the receiver checks them before it downloads anything.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { BLOB_ID_PATTERN } from '../../../shared/api/blobs.js';

export const HISTORY_KIND = 'history';
/** plaintext bytes per sealed chunk unless a caller chooses otherwise */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;
export const MIN_CHUNK_BYTES = 1024;
export const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
/** most blobs one transfer names (at 24 MiB each, 12 GiB; the list stays well inside a message's 64 KiB) */
export const MAX_HISTORY_BLOBS = 512;

const DeviceKey = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const HistoryFields = Type.Object({
  /** the one device the transfer is for (signed, so that it cannot be sealed again to another) */
  toDevice: DeviceKey,
  /** the archive's format, as its writer names it */
  format: Type.String({ minLength: 1, maxLength: 64 }),
  /** AES-256-GCM key of this transfer alone, 32 bytes in standard base64 */
  key: Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$' }),
  chunkSize: Type.Integer({ minimum: MIN_CHUNK_BYTES, maximum: MAX_CHUNK_BYTES }),
  /** the plaintext archive's length in bytes */
  size: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  /** SHA-256 of the plaintext archive, lower-case hex */
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** the sealed chunks, in order, cut into blobs at chunk boundaries */
  blobs: Type.Array(
    Type.Object({ id: Type.String({ pattern: BLOB_ID_PATTERN }), size: Type.Integer({ minimum: 1 }) }),
    { minItems: 1, maxItems: MAX_HISTORY_BLOBS },
  ),
});
export type HistoryFields = Static<typeof HistoryFields>;
const historyCheck = Compile(HistoryFields);

/** The kind-specific fields of an opened `history` message, or null when they break the wire format. */
export function readHistoryFields(m: Record<string, unknown>): HistoryFields | null {
  const fields = {
    toDevice: m.toDevice,
    format: m.format,
    key: m.key,
    chunkSize: m.chunkSize,
    size: m.size,
    sha256: m.sha256,
    blobs: m.blobs,
  };
  if (!historyCheck.Check(fields)) return null;
  return { ...fields, blobs: fields.blobs.map((b) => ({ id: b.id, size: b.size })) };
}
