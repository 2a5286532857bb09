import { Type, type Static } from 'typebox';
import { DateTime } from './common.js';

/** 128 random bits, base64url without padding (docs/protocol.md §14 Blobs). */
export const BLOB_ID_PATTERN = '^[A-Za-z0-9_-]{22}$';
export const BlobId = Type.String({
  pattern: BLOB_ID_PATTERN,
  description: 'blob id: 128 random bits, base64url (22 characters)',
});
export type BlobId = Static<typeof BlobId>;

export const BlobParams = Type.Object({ id: BlobId });

export const BlobUploadResult = Type.Object(
  {
    id: BlobId,
    size: Type.Integer({ minimum: 1, description: 'bytes stored' }),
    expiresAt: DateTime,
  },
  { $id: 'BlobUploadResult', title: 'BlobUploadResult' },
);
export type BlobUploadResult = Static<typeof BlobUploadResult>;

export { DEFAULT_MAX_BLOB_MIB } from '../attachments.js';
