/**
 * A file's bytes across the doorway, in FILE_CHUNK_BYTES pieces of base64 (the same in Electron
 * and web mode, whose frames are capped at 1 MiB): picked files into main to be sent, a
 * received file's plaintext out of main for the browser to download; backups use the same
 * pieces and the same download.
 */
import { FILE_CHUNK_BYTES } from '../../shared/attachments.js';
import { call } from '../bridge/bridge.js';

export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

export function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Hands a file to main; `onBytes` hears how many went over. Returns its staged upload's id. */
export async function stageFile(file: File, onBytes: (done: number) => void): Promise<string> {
  const { uploadId } = await call('attachments.stage', { name: file.name || 'file', size: file.size });
  for (let offset = 0; offset < file.size; offset += FILE_CHUNK_BYTES) {
    const bytes = new Uint8Array(await file.slice(offset, offset + FILE_CHUNK_BYTES).arrayBuffer());
    const { received } = await call('attachments.append', { uploadId, offset, data: toBase64(bytes) });
    onBytes(received);
  }
  return uploadId;
}

/** A received file's plaintext, read from main chunk by chunk. */
export async function readReceivedFile(
  messageId: string,
  index: number,
  mime: string,
  onBytes: (done: number, total: number) => void,
): Promise<Blob> {
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (;;) {
    const { data, size } = await call('attachments.read', { messageId, index, offset });
    const bytes = fromBase64(data);
    parts.push(bytes);
    offset += bytes.length;
    onBytes(offset, size);
    if (offset >= size || bytes.length === 0) break;
  }
  return new Blob(parts as BlobPart[], { type: mime });
}

/** The browser's download of a blob, under the file's name. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
