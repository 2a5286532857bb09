/**
 * History on a new device, two devices of one wallet on one relay: device A, with
 * conversations, sends its history to the wallet's new device B; B shows the same
 * conversations and messages. A blob altered on the relay is refused and nothing is imported;
 * a device of another wallet cannot push history.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RejectedMessage } from '../../../../shared/domain.js';
import type { HistoryOutcome, HistoryProgress } from '../../../../shared/backup/history.js';
import { signIn } from '../../../test-support/sign-in.js';
import { buildDirectFrame } from '../../../vault/sealing/frames.js';
import { buildPayload } from '../../../vault/sealing/payload.js';
import { nodeSealer } from '../../../vault/sealing/sealer-node.js';
import { ChunkSealer } from '../history-crypto.js';
import { HISTORY_ARCHIVE_FORMAT } from '../history-archive.js';
import { Messenger } from '../../core/messenger.js';
import { RelayApi } from '../../network/relay-api.js';
import { PASSPHRASE, cleanup, newProfile, startRelay, tempDir, type Relay } from '../../test/harness.js';

let relay: Relay;
let alice: Awaited<ReturnType<typeof newProfile>>;
let bob: Awaited<ReturnType<typeof newProfile>>;
let photo: { messageId: string; bytes: Buffer };

/** small chunks and blobs: the short history of the test still makes several of each */
const SMALL = { options: { history: { chunkBytes: 1024, blobBytes: 4 * (1024 + 16) } } };

beforeAll(async () => {
  relay = await startRelay();
  alice = await newProfile(relay.url, { handle: 'alice_hist', ...SMALL });
  bob = await newProfile(relay.url, { handle: 'bob_hist' });
  const carol = await newProfile(relay.url, { handle: 'carol_hist' });
  await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'hi bob');
  await bob.m.syncPass();
  await bob.m.contacts.acceptRequest({ address: alice.address });
  for (let i = 0; i < 30; i++)
    await bob.m.messages.sendAndWait(`direct:${alice.address}`, `bob's message ${i}: ${'x'.repeat(100)}`);
  await alice.m.messages.sendAndWait(`direct:${carol.address}`, 'hello carol, ünïcode ✓');
  await carol.m.syncPass();
  await carol.m.contacts.acceptRequest({ address: alice.address });
  await carol.m.messages.sendAndWait(`direct:${alice.address}`, 'hi alice');
  const bytes = randomBytes(40_000);
  const path = join(tempDir('files'), 'photo.jpg');
  writeFileSync(path, bytes);
  const { message } = await bob.m.messages.sendFiles(`direct:${alice.address}`, [path], 'a photo');
  photo = { messageId: message.id, bytes };
  alice.m.autoFetchFiles = false;
  await alice.m.syncPass();
  expect(await alice.m.attachments.fetchPending()).toEqual({ saved: 1, refused: 0 });
}, 120_000);
afterAll(cleanup);

/** A second device of alice's wallet (the same recovery phrase). */
async function newDevice(): Promise<Awaited<ReturnType<typeof newProfile>>> {
  const device = await newProfile(relay.url, { mnemonic: alice.mnemonic!, ...SMALL });
  // the test imports itself, rather than race the background import
  device.m.autoFetchFiles = false;
  return device;
}

function listen(m: Messenger): {
  progress: HistoryProgress[];
  outcomes: HistoryOutcome[];
  rejected: RejectedMessage[];
} {
  const seen = {
    progress: [] as HistoryProgress[],
    outcomes: [] as HistoryOutcome[],
    rejected: [] as RejectedMessage[],
  };
  m.on('history.progress', (p) => seen.progress.push(p));
  m.on('history.outcome', (o) => seen.outcomes.push(o));
  m.on('message.rejected', (r) => seen.rejected.push(r));
  return seen;
}

function everything(m: Messenger): Array<{ conversation: string; title: string; messages: unknown[] }> {
  return m.conversations.list().map((c) => ({
    conversation: c.id,
    title: c.title,
    messages: m.messages
      .listMessages({ conversationId: c.id, limit: 1000 })
      .map((x) => [x.id, x.from, x.fromMe, x.text, x.sentAt]),
  }));
}

function blobFiles(): Set<string> {
  return new Set(readdirSync(join(relay.dataDir, 'blobs')).filter((n) => n.length === 22));
}

describe('history on a new device', { timeout: 120_000 }, () => {
  it('device A sends its history to new device B, which then shows the same conversations and messages', async () => {
    const b = await newDevice();
    expect(b.address).toBe(alice.address);
    expect(b.m.conversations.list()).toEqual([]);
    const onA = listen(alice.m);
    const onB = listen(b.m);

    const before = blobFiles();
    const sent = await alice.m.history.send(b.deviceKey);
    expect(sent.deviceKey).toBe(b.deviceKey);
    expect(sent.blobs).toBeGreaterThan(1);
    // the relay holds ciphertext only
    const added = [...blobFiles()].filter((n) => !before.has(n));
    expect(added).toHaveLength(sent.blobs);
    for (const n of added)
      expect(readFileSync(join(relay.dataDir, 'blobs', n)).includes(Buffer.from("bob's message"))).toBe(false);
    expect(new Set(onA.progress.map((p) => p.phase))).toEqual(new Set(['pack', 'upload']));
    expect(onA.progress.filter((p) => p.phase === 'upload').at(-1)).toMatchObject({
      direction: 'send',
      deviceKey: b.deviceKey,
      done: expect.any(Number),
    });
    const lastUpload = onA.progress.filter((p) => p.phase === 'upload').at(-1)!;
    expect(lastUpload.done).toBe(lastUpload.total);
    // A's list of devices says B has it: the app offers it no more
    expect((await alice.m.account.listDevices()).find((d) => d.publicKey === b.deviceKey)?.history).toBe('sent');

    await b.m.syncPass();
    expect(onB.rejected).toEqual([]);
    expect(b.m.history.hasPending()).toBe(true);
    const outcome = await b.m.history.importPending();
    expect(outcome).toEqual({ state: 'received', fromDevice: alice.deviceKey, conversations: 2, messages: 34 });
    expect(onB.outcomes).toEqual([outcome]);
    expect(new Set(onB.progress.map((p) => p.phase))).toEqual(new Set(['download', 'verify', 'import']));
    expect(onB.progress.every((p) => p.direction === 'receive' && p.deviceKey === alice.deviceKey)).toBe(true);
    const verified = onB.progress.filter((p) => p.phase === 'verify').at(-1)!;
    expect(verified.done).toBe(sent.size);

    const mine = everything(alice.m);
    expect(mine.map((c) => c.messages.length).sort()).toEqual([2, 32]);
    expect(mine.map((c) => c.title).sort()).toEqual(['@bob_hist', '@carol_hist']);
    expect(everything(b.m)).toEqual(mine);
    // the received file came along, kept at rest under B's own key
    expect(b.m.attachments.filesOf(photo.messageId).map((f) => [f.name, f.state])).toEqual([['photo.jpg', 'saved']]);
    const out = join(tempDir('export'), 'photo.jpg');
    await b.m.attachments.exportFile(photo.messageId, 0, out);
    expect(readFileSync(out).equals(photo.bytes)).toBe(true);
    expect(b.m.history.hasPending()).toBe(false);
    // the blobs were the wallet's own: the receiver deleted them once imported
    expect([...blobFiles()].filter((n) => added.includes(n))).toEqual([]);
  });

  it('"Not now" to a new device is remembered across a restart; the other devices are still offered', async () => {
    const declined = await newDevice();
    const other = await newDevice();
    const a = await newDevice();
    await a.m.history.decline(declined.deviceKey);
    await a.m.close();
    const again = await Messenger.open({ profileDir: a.dir, shell: 'web', autoSync: false });
    try {
      await again.wallet.unlock({ passphrase: PASSPHRASE });
      const answers = Object.fromEntries((await again.account.listDevices()).map((d) => [d.publicKey, d.history]));
      expect(answers[declined.deviceKey]).toBe('declined');
      expect(answers[other.deviceKey]).toBeNull();
      expect(answers[a.deviceKey]).toBeNull();
    } finally {
      await again.close();
    }
  });

  it('a new device that already received messages keeps them and takes the rest, without doubles', async () => {
    const f = await newDevice();
    // sealed to every certified device of alice's, the new one included
    const { message } = await bob.m.messages.sendAndWait(`direct:${alice.address}`, 'while you were setting up');
    expect((await f.m.syncPass()).stored).toBe(1);
    await alice.m.syncPass();
    await alice.m.history.send(f.deviceKey);
    await f.m.syncPass();
    expect(await f.m.history.importPending()).toMatchObject({
      state: 'received',
      messages: everything(alice.m).reduce((n, c) => n + c.messages.length, 0) - 1,
    });
    expect(everything(f.m)).toEqual(everything(alice.m));
    expect(
      f.m.messages
        .listMessages({ conversationId: `direct:${bob.address}`, limit: 1000 })
        .filter((x) => x.id === message.id),
    ).toHaveLength(1);
    expect(f.m.conversations.list().find((c) => c.id === `direct:${bob.address}`)!.lastMessage!.text).toBe(
      'while you were setting up',
    );
  });

  it('a message still waiting to go on the old device stays there; it reaches the new one once sent, as sent', async () => {
    const g = await newDevice();
    const waiting = alice.m['outbox'].enqueue({ kind: 'direct', peer: bob.address }, 'still in the outbox', 'text');
    await alice.m.history.send(g.deviceKey);
    await g.m.syncPass();
    expect(await g.m.history.importPending()).toMatchObject({ state: 'received' });
    expect(g.m.store.getMessage(waiting.id)).toBeNull();
    await alice.m.messages.flushOutbox(true);
    await g.m.syncPass();
    expect(g.m.store.getMessage(waiting.id)).toMatchObject({
      text: 'still in the outbox',
      fromMe: true,
      state: 'sent',
    });
  });

  it('a blob altered on the relay is refused, and nothing is imported', async () => {
    const c = await newDevice();
    const onC = listen(c.m);
    const before = blobFiles();
    await alice.m.history.send(c.deviceKey);
    const [victim] = [...blobFiles()].filter((n) => !before.has(n)).sort();
    const path = join(relay.dataDir, 'blobs', victim);
    const bytes = readFileSync(path);
    bytes[bytes.length >> 1] ^= 0x01;
    writeFileSync(path, bytes);

    await c.m.syncPass();
    const outcome = await c.m.history.importPending();
    expect(outcome).toMatchObject({
      state: 'refused',
      fromDevice: alice.deviceKey,
      reason: expect.stringMatching(/does not authenticate.*nothing was imported/),
    });
    expect(onC.outcomes).toEqual([outcome]);
    expect(onC.progress.some((p) => p.phase === 'import')).toBe(false);
    expect(c.m.conversations.list()).toEqual([]);
    expect(c.m.history.hasPending()).toBe(false);
  });

  it("history sent to one device cannot be used by another, and A refuses a key that is not one of its wallet's devices", async () => {
    const d = await newDevice();
    const e = await newDevice();
    await alice.m.history.send(d.deviceKey);
    // e is of the same wallet but the message was sealed to d alone: e never sees it
    expect((await e.m.syncPass()).stored).toBe(0);
    expect(e.m.history.hasPending()).toBe(false);
    const stranger = await newProfile(relay.url);
    await expect(alice.m.history.send(stranger.deviceKey)).rejects.toMatchObject({ code: 'not-found' });
    await expect(alice.m.history.send(alice.deviceKey)).rejects.toMatchObject({ code: 'bad-argument' });
  });

  it('a device of another wallet cannot push history', async () => {
    const b = await newDevice();
    const onB = listen(b.m);
    const mallory = await signIn(relay.url, 'mallory');
    const api = new RelayApi({ baseUrl: relay.url, credential: mallory.apiKey });
    try {
      // a well-formed transfer of a real archive, by mallory's certified device, to alice's new device
      const line = JSON.stringify({
        conversationId: `direct:${mallory.address}`,
        conversationKind: 'direct',
        peer: mallory.address,
        message: {
          id: globalThis.crypto.randomUUID(),
          from: mallory.address,
          fromMe: false,
          kind: 'text',
          text: 'planted',
          sentAt: new Date().toISOString(),
          receivedAt: null,
          via: null,
          botName: null,
        },
      });
      const key = randomBytes(32);
      const sealer = new ChunkSealer(key, 1024);
      const sealedArchive = Buffer.concat(
        await Readable.from([Buffer.from(`${line}\n`)])
          .pipe(sealer)
          .toArray(),
      );
      const blob = await api.uploadBlob(() => Readable.from([sealedArchive]), sealedArchive.length);
      const m = JSON.stringify({
        id: globalThis.crypto.randomUUID(),
        kind: 'history',
        from: mallory.address,
        sentAt: new Date().toISOString(),
        to: alice.address,
        device: mallory.deviceKey,
        toDevice: b.deviceKey,
        format: HISTORY_ARCHIVE_FORMAT,
        key: key.toString('base64'),
        chunkSize: 1024,
        size: sealer.size(),
        sha256: sealer.sha256(),
        blobs: [{ id: blob.id, size: blob.size }],
      });
      const sealed = nodeSealer.seal(
        b.deviceKey,
        buildDirectFrame(buildPayload(m, await mallory.account.signMessage({ message: m }))),
      );
      await api.send([
        {
          toAddress: alice.address,
          recipientDeviceKey: b.deviceKey,
          ciphertext: sealed.ciphertext,
          ephemeralPublicKey: sealed.ephemeralPublicKey,
          nonce: sealed.nonce,
        },
      ]);
    } finally {
      api.close();
    }
    const pass = await b.m.syncPass();
    expect(pass.rejected).toBe(1);
    expect(onB.rejected.map((r) => r.reason)).toEqual([
      expect.stringMatching(/history sent by 0x[0-9a-f]{40}, another wallet, was refused/),
    ]);
    expect(b.m.history.hasPending()).toBe(false);
    expect(await b.m.history.importPending()).toBeNull();
    expect(b.m.conversations.list()).toEqual([]);
  });
});
