/**
 * Attachments between two profiles over a real relay: files go up encrypted, the
 * message carries their keys and hashes, and the receiver fetches, checks and keeps them
 * encrypted at rest; a blob altered on the relay is refused, reported, and not kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RejectedMessage } from '../../../../shared/domain.js';
import { cleanup, newProfile, startRelay, tempDir, type Relay } from '../../test/harness.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(cleanup);

async function acquainted(tag: string) {
  const alice = await newProfile(relay.url, { handle: `alice_${tag}` });
  const bob = await newProfile(relay.url, { handle: `bob_${tag}` });
  await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'hi bob');
  await bob.m.syncPass();
  await bob.m.contacts.acceptRequest({ address: alice.address });
  // the background fetch would race the test's own call
  bob.m.autoFetchFiles = false;
  return { alice, bob };
}

function file(name: string, bytes: Buffer): string {
  const path = join(tempDir('files'), name);
  writeFileSync(path, bytes);
  return path;
}

describe('attachments between two profiles', { timeout: 120_000 }, () => {
  it('two files round-trip: uploaded encrypted, checked against their SHA-256, kept encrypted at rest, exported intact', async () => {
    const { alice, bob } = await acquainted('files');
    const photo = randomBytes(3 * 1024 * 1024 + 17);
    const notes = Buffer.from('meeting notes\n'.repeat(1000));
    const progress: number[] = [];
    const { message, outcome } = await alice.m.messages.sendFiles(
      `direct:${bob.address}`,
      [file('photo.jpg', photo), file('notes.txt', notes)],
      'from the trip',
      (i, done) => i === 0 && progress.push(done),
    );
    expect(outcome.state).toBe('sent');
    expect(progress.at(-1)).toBe(photo.length + 16);
    expect(alice.m.attachments.filesOf(message.id).map((f) => [f.name, f.mime, f.size, f.state])).toEqual([
      ['photo.jpg', 'image/jpeg', photo.length, 'sent'],
      ['notes.txt', 'text/plain', notes.length, 'sent'],
    ]);
    // the relay holds ciphertext only: no blob file contains the notes' text
    const blobs = readdirSync(join(relay.dataDir, 'blobs')).filter((n) => n.length === 22);
    for (const b of blobs)
      expect(readFileSync(join(relay.dataDir, 'blobs', b)).includes(Buffer.from('meeting notes'))).toBe(false);

    const pass = await bob.m.syncPass();
    expect(pass.stored).toBe(1);
    const received = bob.m.messages
      .listMessages({ conversationId: `direct:${alice.address}` })
      .find((m) => m.id === message.id)!;
    expect(received.text).toBe('from the trip');
    expect(bob.m.attachments.filesOf(message.id).map((f) => f.state)).toEqual(['pending', 'pending']);

    expect(await bob.m.attachments.fetchPending()).toEqual({ saved: 2, refused: 0 });
    const files = bob.m.attachments.filesOf(message.id);
    expect(files.map((f) => [f.name, f.mime, f.size, f.state])).toEqual([
      ['photo.jpg', 'image/jpeg', photo.length, 'saved'],
      ['notes.txt', 'text/plain', notes.length, 'saved'],
    ]);
    // at rest in bob's profile, and not in clear
    expect(files[1].path!.startsWith(join(bob.dir, 'files'))).toBe(true);
    expect(readFileSync(files[1].path!).includes(Buffer.from('meeting notes'))).toBe(false);

    const out = join(tempDir('export'), 'photo.jpg');
    await bob.m.attachments.exportFile(message.id, 0, out);
    expect(createHash('sha256').update(readFileSync(out)).digest('hex')).toBe(
      createHash('sha256').update(photo).digest('hex'),
    );
  });

  it("a file message its author deletes for everyone takes the kept file off the receiver's disk", async () => {
    const { alice, bob } = await acquainted('gone');
    const { message } = await alice.m.messages.sendFiles(
      `direct:${bob.address}`,
      [file('draft.txt', Buffer.from('a draft\n'.repeat(500)))],
      'oops',
    );
    await bob.m.syncPass();
    expect(await bob.m.attachments.fetchPending()).toEqual({ saved: 1, refused: 0 });
    const kept = bob.m.attachments.filesOf(message.id)[0].path!;
    expect(readdirSync(join(bob.dir, 'files'))).toContain(kept.slice(join(bob.dir, 'files').length + 1));

    await alice.m.changes.delete({ conversationId: `direct:${bob.address}`, messageId: message.id });
    await alice.m.messages.flushOutbox();
    const removed = new Promise<void>((resolve) =>
      bob.m.on('message.updated', (m) => m.id === message.id && m.deleted && resolve()),
    );
    await bob.m.syncPass();
    await removed;
    expect(bob.m.attachments.filesOf(message.id)).toEqual([]);
    await expect.poll(() => readdirSync(join(bob.dir, 'files')).filter((n) => n !== '.tmp')).toEqual([]);
  });

  it('a blob altered on the relay is refused and reported, and nothing of it is kept', async () => {
    const { alice, bob } = await acquainted('tamper');
    const rejected: RejectedMessage[] = [];
    bob.m.on('message.rejected', (r) => rejected.push(r));
    const { message } = await alice.m.messages.sendFiles(`direct:${bob.address}`, [
      file('contract.pdf', randomBytes(200_000)),
    ]);
    const blobId = alice.m.store.attachments.refsOf(message.id)[0].blob;
    const onRelay = join(relay.dataDir, 'blobs', blobId);
    const bytes = readFileSync(onRelay);
    bytes[1000] ^= 0x01;
    writeFileSync(onRelay, bytes);

    await bob.m.syncPass();
    expect(await bob.m.attachments.fetchPending()).toEqual({ saved: 0, refused: 1 });
    const [f] = bob.m.attachments.filesOf(message.id);
    expect(f.state).toBe('refused');
    expect(f.path).toBeNull();
    expect(f.error).toMatch(/altered or corrupted/);
    expect(rejected.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^file "contract.pdf": the blob failed its authentication tag/),
    ]);
    expect(readdirSync(join(bob.dir, 'files')).filter((n) => n !== '.tmp')).toEqual([]);
    expect(readdirSync(join(bob.dir, 'files', '.tmp'))).toEqual([]);
    // a refused file is not fetched again
    expect(await bob.m.attachments.fetchPending()).toEqual({ saved: 0, refused: 0 });
  });

  it('files the relay would refuse as plain bytes (zeros, UTF-16, a zero-padded image) go up sealed at every size around its entropy windows', async () => {
    const { alice, bob } = await acquainted('regular');
    // a blob is the file plus a 16-byte tag: 1008 bytes make exactly the 1 KiB smallest window, 4080 one 4 KiB window
    const utf16 = Buffer.from('Dear Bob, the report is attached. Привет! '.repeat(400), 'utf16le');
    const bytes = [
      Buffer.alloc(1007),
      Buffer.alloc(1008),
      Buffer.alloc(4080),
      Buffer.alloc(4081),
      Buffer.alloc(200_000),
      utf16.subarray(0, 1008),
      utf16,
      Buffer.concat([randomBytes(30_000), Buffer.alloc(10_000)]),
    ];
    const { message, outcome } = await alice.m.messages.sendFiles(
      `direct:${bob.address}`,
      bytes.map((b, i) => file(`regular-${i}.bin`, b)),
    );
    expect(outcome.state).toBe('sent');
    await bob.m.syncPass();
    expect(await bob.m.attachments.fetchPending()).toEqual({ saved: bytes.length, refused: 0 });
    expect(bob.m.attachments.filesOf(message.id).map((f) => f.size)).toEqual(bytes.map((b) => b.length));
  });

  it('refuses more than 10 files, an empty file and a missing one before uploading anything', async () => {
    const { alice, bob } = await acquainted('limits');
    const one = file('a.bin', randomBytes(100));
    const blobsBefore = readdirSync(join(relay.dataDir, 'blobs')).length;
    await expect(
      alice.m.messages.sendFiles(
        `direct:${bob.address}`,
        Array.from({ length: 11 }, () => one),
      ),
    ).rejects.toThrow(/1 to 10 files/);
    await expect(
      alice.m.messages.sendFiles(`direct:${bob.address}`, [file('empty.txt', Buffer.alloc(0))]),
    ).rejects.toThrow(/empty/);
    await expect(
      alice.m.messages.sendFiles(`direct:${bob.address}`, [join(tempDir('none'), 'missing.bin')]),
    ).rejects.toThrow(/not a readable file/);
    expect(readdirSync(join(relay.dataDir, 'blobs')).length).toBe(blobsBefore);
  });
});
