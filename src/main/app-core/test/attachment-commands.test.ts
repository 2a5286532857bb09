/**
 * The app's file commands over a real relay: bytes handed over in chunks are staged,
 * uploaded and sent with the image preview the renderer made; the receiver's messages carry the
 * files and that preview before anything is fetched; web mode's Save reads the decrypted bytes
 * back in chunks, Electron's writes where the dialog says; a failed upload keeps the staged files
 * so the same send goes through once the relay is back; bytes out of turn or out of bounds are refused.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CHUNK_BYTES, MAX_FILE_BYTES, type FileProgress } from '../../../shared/attachments.js';
import type { ConversationId } from '../../../shared/domain.js';
import type { Messenger } from '../../client/core/messenger.js';
import { cleanup, newProfile, startRelay, tempDir, type Relay } from '../../client/test/harness.js';
import { AttachmentCommands, withFiles } from '../attachment-commands.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(cleanup);

// not a real JPEG: the wire checks the form of a data: URL and its size, the app never decodes it in main
const PREVIEW = `data:image/jpeg;base64,${Buffer.from('preview bytes').toString('base64')}`;

async function acquainted(relayUrl: string, tag: string) {
  const alice = await newProfile(relayUrl, { handle: `alice_${tag}` });
  const bob = await newProfile(relayUrl, { handle: `bob_${tag}` });
  await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'hi bob');
  await bob.m.syncPass();
  await bob.m.contacts.acceptRequest({ address: alice.address });
  bob.m.autoFetchFiles = false;
  return { alice, bob };
}

function commands(
  m: Messenger,
  profileDir: string,
  extra: { chooseSavePath?: (name: string) => Promise<string | null> } = {},
) {
  const progress: FileProgress[] = [];
  const c = new AttachmentCommands({ messenger: () => m, profileDir, emitProgress: (p) => progress.push(p), ...extra });
  return { h: c.handlers(), progress };
}

/** Hands `bytes` over as the renderer does, in chunks. */
async function stage(h: ReturnType<AttachmentCommands['handlers']>, name: string, bytes: Buffer): Promise<string> {
  const { uploadId } = await h['attachments.stage']({ name, size: bytes.length });
  for (let offset = 0; offset < bytes.length; offset += FILE_CHUNK_BYTES) {
    await h['attachments.append']({
      uploadId,
      offset,
      data: bytes.subarray(offset, offset + FILE_CHUNK_BYTES).toString('base64'),
    });
  }
  return uploadId;
}

const sendId = () => crypto.randomUUID();

describe("the app's file commands", { timeout: 120_000 }, () => {
  it('stages chunks, sends with a preview the receiver sees before fetching, and saves both ways', async () => {
    const { alice, bob } = await acquainted(relay.url, 'send');
    const { h, progress } = commands(alice.m, alice.dir);
    const photo = randomBytes(FILE_CHUNK_BYTES + 1234);
    const notes = Buffer.from('minutes\n'.repeat(300));
    const id = sendId();
    const uploads = [await stage(h, 'photo.jpg', photo), await stage(h, 'notes.txt', notes)];
    expect(readdirSync(join(alice.dir, 'outgoing'))).toHaveLength(2);

    const sent = await h['attachments.send']({
      sendId: id,
      conversationId: `direct:${bob.address}`,
      text: '',
      files: [{ uploadId: uploads[0], preview: PREVIEW }, { uploadId: uploads[1] }],
    });
    expect(sent.files!.map((f) => [f.name, f.size, f.state, f.preview])).toEqual([
      ['photo.jpg', photo.length, 'sent', PREVIEW],
      ['notes.txt', notes.length, 'sent', null],
    ]);
    // the upload's progress reached the end of each blob (the file and its GCM tag), under the send's id
    expect(progress.filter((p) => p.id === id && p.index === 0).at(-1)).toEqual({
      direction: 'up',
      id,
      index: 0,
      done: photo.length + 16,
      total: photo.length + 16,
    });
    // sent: nothing staged is left
    expect(readdirSync(join(alice.dir, 'outgoing'))).toEqual([]);

    await bob.m.syncPass();
    const [before] = withFiles(
      bob.m.attachments,
      bob.m.messages.listMessages({ conversationId: `direct:${alice.address}` }).filter((m) => m.id === sent.id),
    );
    expect(before.files!.map((f) => [f.name, f.state, f.preview])).toEqual([
      ['photo.jpg', 'pending', PREVIEW],
      ['notes.txt', 'pending', null],
    ]);
    expect(await bob.m.attachments.fetchPending()).toEqual({ saved: 2, refused: 0 });

    // web mode: no dialog, so the page reads the plaintext in chunks
    const web = commands(bob.m, bob.dir).h;
    expect(await web['attachments.save']({ messageId: sent.id, index: 0 })).toEqual({ handled: false, saved: false });
    const parts: Buffer[] = [];
    for (let offset = 0; ;) {
      const { data, size } = await web['attachments.read']({ messageId: sent.id, index: 0, offset });
      expect(size).toBe(photo.length);
      parts.push(Buffer.from(data, 'base64'));
      offset += parts.at(-1)!.length;
      if (offset >= size) break;
    }
    expect(parts).toHaveLength(2);
    expect(Buffer.concat(parts).equals(photo)).toBe(true);

    // Electron: the dialog's path gets the file; a cancelled dialog writes nothing
    const dest = join(tempDir('saved'), 'notes.txt');
    const asked: string[] = [];
    const shell = commands(bob.m, bob.dir, {
      chooseSavePath: async (name) => (asked.push(name), asked.length === 1 ? null : dest),
    }).h;
    expect(await shell['attachments.save']({ messageId: sent.id, index: 1 })).toEqual({ handled: true, saved: false });
    expect(existsSync(dest)).toBe(false);
    expect(await shell['attachments.save']({ messageId: sent.id, index: 1 })).toEqual({ handled: true, saved: true });
    expect(asked).toEqual(['notes.txt', 'notes.txt']);
    expect(readFileSync(dest).equals(notes)).toBe(true);
  });

  it('refuses bytes out of turn or beyond the file, a file over 25 MiB, and a send before the file is whole', async () => {
    const { alice, bob } = await acquainted(relay.url, 'bounds');
    const { h } = commands(alice.m, alice.dir);
    await expect(h['attachments.stage']({ name: 'huge.bin', size: MAX_FILE_BYTES + 1 })).rejects.toMatchObject({
      code: 'file-too-large',
    });
    const { uploadId } = await h['attachments.stage']({ name: 'a.txt', size: 10 });
    await expect(
      h['attachments.append']({ uploadId, offset: 5, data: Buffer.from('hello').toString('base64') }),
    ).rejects.toThrow(/from 0, got them from 5/);
    await expect(
      h['attachments.append']({ uploadId, offset: 0, data: Buffer.from('hello world!').toString('base64') }),
    ).rejects.toThrow(/More bytes/);
    await h['attachments.append']({ uploadId, offset: 0, data: Buffer.from('hello').toString('base64') });
    await expect(
      h['attachments.send']({
        sendId: sendId(),
        conversationId: `direct:${bob.address}`,
        text: '',
        files: [{ uploadId }],
      }),
    ).rejects.toThrow(/not been handed over whole/);
    await h['attachments.discard']({ uploadIds: [uploadId] });
    await expect(
      h['attachments.append']({ uploadId, offset: 5, data: Buffer.from('world').toString('base64') }),
    ).rejects.toMatchObject({ code: 'not-found' });
  });

  it('a failed upload keeps the staged files: the same send goes through once the relay is back', async () => {
    const own = await startRelay();
    const { alice, bob } = await acquainted(own.url, 'retry');
    const { h } = commands(alice.m, alice.dir);
    const bytes = randomBytes(4000);
    const uploadId = await stage(h, 'report.pdf', bytes);
    const args = {
      sendId: sendId(),
      conversationId: `direct:${bob.address}` as ConversationId,
      text: 'the report',
      files: [{ uploadId }],
    };
    await own.stop();
    await expect(h['attachments.send'](args)).rejects.toThrow();
    expect(readdirSync(join(alice.dir, 'outgoing'))).toEqual([uploadId]);

    await startRelay({ dataDir: own.dataDir, port: own.port });
    const sent = await h['attachments.send'](args);
    expect(sent.files!.map((f) => [f.name, f.size])).toEqual([['report.pdf', 4000]]);
    await bob.m.syncPass();
    expect(await bob.m.attachments.fetchPending()).toEqual({ saved: 1, refused: 0 });
  });
});
