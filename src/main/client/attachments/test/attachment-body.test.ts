import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { composeFields, readBody } from '../../messages/message-body.js';
import { MAX_FILE_BYTES, type AttachmentRef } from '../attachment-wire.js';
import { PREVIEW_MAX_CHARS } from '../../../../shared/attachments.js';

const PEER = '0x' + 'ab'.repeat(20);
const DEVICE = 'cd'.repeat(32);
const ref = (extra: Partial<AttachmentRef> = {}): AttachmentRef => ({
  blob: randomBytes(16).toString('base64url'),
  key: randomBytes(32).toString('base64'),
  nonce: randomBytes(12).toString('base64'),
  name: 'photo.jpg',
  mime: 'image/jpeg',
  size: 1234,
  sha256: 'ef'.repeat(32),
  ...extra,
});
/** What a receiver reads: the composed fields through JSON, as the vault hands them over. */
const roundTrip = (m: Record<string, unknown>) => readBody(JSON.parse(JSON.stringify(m)) as Record<string, unknown>);

describe('the attachment kind on the wire', () => {
  it('goes out as kind attachment with its files and caption, and reads back as a text message with files', () => {
    const files = [ref(), ref({ name: 'notes.txt', mime: 'text/plain' })];
    const m = composeFields({
      id: randomUUID(),
      sentAt: new Date().toISOString(),
      kind: 'text',
      text: 'look',
      to: PEER,
      device: DEVICE,
      files,
    });
    expect(m).toMatchObject({ kind: 'attachment', text: 'look', files });
    expect(roundTrip(m)).toEqual({
      kind: 'text',
      text: 'look',
      to: PEER,
      device: DEVICE,
      files,
      control: null,
      expiresIn: null,
    });
    const bare = composeFields({
      id: randomUUID(),
      sentAt: new Date().toISOString(),
      kind: 'text',
      text: '',
      to: PEER,
      device: DEVICE,
      files,
    });
    expect('text' in bare).toBe(false);
    expect(roundTrip(bare)?.text).toBe('');
  });

  it('drops a message whose files break the format: none, more than 10, a short key, an oversized file, a bad hash', () => {
    const base = { id: randomUUID(), sentAt: new Date().toISOString(), kind: 'attachment', to: PEER, device: DEVICE };
    expect(roundTrip({ ...base, files: [] })).toBeNull();
    expect(roundTrip({ ...base, files: Array.from({ length: 11 }, () => ref()) })).toBeNull();
    expect(roundTrip({ ...base, files: [ref({ key: randomBytes(16).toString('base64') })] })).toBeNull();
    expect(roundTrip({ ...base, files: [ref({ size: MAX_FILE_BYTES + 1 })] })).toBeNull();
    expect(roundTrip({ ...base, files: [ref({ sha256: 'EF'.repeat(32) })] })).toBeNull();
    expect(roundTrip({ ...base, files: [ref()], text: 42 })).toBeNull();
    expect(roundTrip({ ...base, files: [ref()] })?.files).toHaveLength(1);
  });

  it('keeps only the last part of a file name, without control or bidi characters', () => {
    const base = { id: randomUUID(), sentAt: new Date().toISOString(), kind: 'attachment', to: PEER, device: DEVICE };
    const names = ['../../etc/passwd', 'C:\\Users\\x\\report.pdf', 'invoice\u202Efdp.exe', '..'];
    const read = roundTrip({ ...base, files: names.map((name) => ref({ name })) });
    expect(read?.files?.map((f) => f.name)).toEqual(['passwd', 'report.pdf', 'invoicefdp.exe', 'file']);
  });

  it('carries an image preview as a small data: URL of an image, and drops a message whose preview is anything else', () => {
    const base = { id: randomUUID(), sentAt: new Date().toISOString(), kind: 'attachment', to: PEER, device: DEVICE };
    const preview = `data:image/jpeg;base64,${randomBytes(600).toString('base64')}`;
    expect(
      roundTrip({ ...base, files: [ref({ preview }), ref({ name: 'notes.txt' })] })?.files?.map((f) => f.preview),
    ).toEqual([preview, undefined]);
    const tooLarge = `data:image/jpeg;base64,${'A'.repeat(PREVIEW_MAX_CHARS)}`;
    for (const bad of [
      tooLarge,
      'data:image/svg+xml;base64,PHN2Zy8+',
      'https://example.com/cat.jpg',
      'data:text/html;base64,PGI+aGk8L2I+',
    ])
      expect(roundTrip({ ...base, files: [ref({ preview: bad })] })).toBeNull();
  });
});
