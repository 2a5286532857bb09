/**
 * The one table of MIME types by file extension, for the main side's two uses: the type an
 * attachment is sent with (the receiver uses it to decide how to show the file, never to open
 * it) and the type web mode serves the page's own files with.
 */
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heic',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  js: 'text/javascript',
  css: 'text/css',
  woff2: 'font/woff2',
  json: 'application/json',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

export const UNKNOWN_MIME_TYPE = 'application/octet-stream';

/** The type of a file name (or path) by its extension, any case; application/octet-stream when unknown. */
export function mimeTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  return (dot > slash + 1 && BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()]) || UNKNOWN_MIME_TYPE;
}

/** Types a browser would run, if one ever opened the file in place: a received file never says it is one. */
const ACTIVE = new Set(['text/html', 'text/javascript']);

/** The type an attachment is sent with. */
export function attachmentMimeType(fileName: string): string {
  const type = mimeTypeOf(fileName);
  return ACTIVE.has(type) ? UNKNOWN_MIME_TYPE : type;
}
