/**
 * Files in messages as the app sees them: the bounds the renderer checks before it
 * hands bytes over, the doorway checks again, and the view of a message's files.
 */

/**
 * The relay's default cap on one blob, in MiB (operators change it with --max-blob-mib). Here,
 * not in api/blobs.ts, so that the renderer's bounds do not bring the API schemas (and all of
 * typebox, ~15 % of the renderer's code) into the page.
 */
export const DEFAULT_MAX_BLOB_MIB = 25;
/** Most files one message carries. */
export const MAX_FILES = 10;
/** AES-GCM's tag, which the blob carries after the ciphertext. */
export const GCM_TAG_BYTES = 16;
/**
 * Largest file: its blob (the file plus the GCM tag) must fit the relay's default cap of 25 MiB
 * (docs/protocol.md §14 Blobs caps the blob, not the file).
 */
export const MAX_FILE_BYTES = DEFAULT_MAX_BLOB_MIB * 1024 * 1024 - GCM_TAG_BYTES;
/**
 * An image's preview rides inside the sealed message, and an envelope holds at most 64 KiB:
 * each preview is a small data: URL, and a message's previews together stay under a budget.
 */
export const PREVIEW_MAX_CHARS = 8192;
export const PREVIEWS_MAX_CHARS_PER_MESSAGE = 32_768;
export const PREVIEW_PATTERN = '^data:image/(jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$';
/** a caption beside files: the files' fields and previews take the rest of the envelope */
export const CAPTION_MAX_CHARS = 4000;
/** bytes of a file per call when they cross the doorway (base64 in a frame under 1 MiB) */
export const FILE_CHUNK_BYTES = 512 * 1024;

/**
 * - `sent`: one's own (the sender keeps no copy to save);
 * - `pending`: still to be downloaded and checked (`error` says why the last try failed);
 * - `saved`: downloaded, checked and kept (encrypted) on this device: Save works;
 * - `refused`: it failed its checks or the relay no longer has it (`error` says which).
 */
export interface MessageFile {
  index: number;
  name: string;
  mime: string;
  size: number;
  state: 'sent' | 'pending' | 'saved' | 'refused';
  error: string | null;
  /** the sender's downscaled image, a data: URL; null for other files */
  preview: string | null;
}

/** How far a file's transfer got: an upload by the send's id, a download by message and index. */
export interface FileProgress {
  direction: 'up' | 'down';
  /** the id the renderer gave the send (uploads), or the message's id (downloads) */
  id: string;
  /** the file's place in the send or the message */
  index: number;
  done: number;
  total: number;
}
