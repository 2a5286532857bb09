/**
 * Blobs (docs/protocol.md §14 Blobs): encrypted attachment bytes streamed up and down, with Range, a
 * size cap, a per-wallet quota, the plaintext checks, uploader-only delete and expiry.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobFiles } from '../../blobs/blob-files.js';
import { sweepBlobs } from '../../blobs/blob-sweep.js';
import { call, signIn, signInKnown, startRelay, type TestRelay, type TestUser } from '../harness.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/** A stored blob's record, or the relay's error: each test's expectations say which it got. */
type UploadAnswer = { id: string; size: number; expiresAt: string; error?: string; code?: string };

async function upload(
  relay: TestRelay,
  user: TestUser,
  body: Uint8Array | ReadableStream<Uint8Array>,
  contentType = 'application/octet-stream',
) {
  const res = await fetch(`${relay.url}/api/v1/blobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': contentType },
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as UploadAnswer };
}

async function download(relay: TestRelay, user: TestUser, id: string, range?: string) {
  const res = await fetch(`${relay.url}/api/v1/blobs/${id}`, {
    headers: { authorization: `Bearer ${user.apiKey}`, ...(range ? { range } : {}) },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A body sent in chunks with no Content-Length, as a client streaming from disk would. */
function chunked(total: number, chunk = 64 * KIB): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(chunk, total - sent);
      sent += n;
      controller.enqueue(randomBytes(n));
    },
  });
}

const blobFiles = (relay: TestRelay) => readdirSync(join(relay.dir, 'blobs')).filter((n) => BlobFiles.isId(n));

describe('blobs on the relay', () => {
  let relay: TestRelay;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    relay = await startRelay({ maxBlobMib: 1, maxBlobStorageMib: 2 });
    alice = await signIn(relay.url);
    bob = await signIn(relay.url);
  });
  afterAll(async () => relay.close());

  it('round-trips the bytes: whole, a range, an open range, a suffix, and 416 past the end', async () => {
    const bytes = randomBytes(300 * KIB);
    const up = await upload(relay, alice, bytes);
    expect(up.status).toBe(200);
    expect(up.body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(up.body.size).toBe(bytes.length);
    expect(Date.parse(up.body.expiresAt)).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);

    const whole = await download(relay, bob, up.body.id);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.bytes.equals(bytes)).toBe(true);

    const part = await download(relay, bob, up.body.id, 'bytes=1000-5999');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-5999/${bytes.length}`);
    expect(part.bytes.equals(bytes.subarray(1000, 6000))).toBe(true);

    const rest = await download(relay, bob, up.body.id, `bytes=${bytes.length - 10}-`);
    expect(rest.status).toBe(206);
    expect(rest.bytes.equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const suffix = await download(relay, bob, up.body.id, 'bytes=-16');
    expect(suffix.status).toBe(206);
    expect(suffix.bytes.equals(bytes.subarray(bytes.length - 16))).toBe(true);

    const past = await download(relay, bob, up.body.id, `bytes=${bytes.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
  });

  it('streams an upload without Content-Length to disk', async () => {
    const up = await upload(relay, bob, chunked(700 * KIB));
    expect(up.status).toBe(200);
    expect(up.body.size).toBe(700 * KIB);
    expect((await download(relay, alice, up.body.id)).bytes.length).toBe(700 * KIB);
    expect((await call(relay.url, 'DELETE', `/api/v1/blobs/${up.body.id}`, { auth: bob.apiKey })).status).toBe(200);
  });

  it('refuses a blob over --max-blob-mib with 413, declared or streamed, and keeps nothing of it', async () => {
    const before = blobFiles(relay);
    const declared = await upload(relay, alice, randomBytes(MIB + 1));
    expect(declared.status).toBe(413);
    expect(declared.body.code).toBe('blob-too-large');
    const streamed = await upload(relay, alice, chunked(MIB + 64 * KIB));
    expect(streamed.status).toBe(413);
    expect(streamed.body.code).toBe('blob-too-large');
    expect(blobFiles(relay)).toEqual(before);
    expect(readdirSync(join(relay.dir, 'blobs', '.tmp'))).toEqual([]);
  });

  it('holds each wallet to --max-blob-storage-mib with 429 blob-quota-full, and frees it on delete', async () => {
    const carol = await signIn(relay.url);
    const first = await upload(relay, carol, randomBytes(900 * KIB));
    const second = await upload(relay, carol, randomBytes(900 * KIB));
    expect([first.status, second.status]).toEqual([200, 200]);
    const streamedOver = await upload(relay, carol, chunked(300 * KIB));
    expect(streamedOver.status).toBe(429);
    expect(streamedOver.body.code).toBe('blob-quota-full');
    const declaredOver = await upload(relay, carol, randomBytes(300 * KIB));
    expect(declaredOver.status).toBe(429);
    expect(declaredOver.body.code).toBe('blob-quota-full');
    // another wallet's quota is its own
    expect((await upload(relay, alice, randomBytes(300 * KIB))).status).toBe(200);
    expect((await call(relay.url, 'DELETE', `/api/v1/blobs/${first.body.id}`, { auth: carol.apiKey })).status).toBe(
      200,
    );
    expect((await upload(relay, carol, randomBytes(300 * KIB))).status).toBe(200);
  });

  it('refuses plaintext-looking uploads with 400 not-sealed, as it refuses such envelopes', async () => {
    const text = Buffer.from('Dear Bob, here is the quarterly report you asked for. '.repeat(200));
    const long = await upload(relay, alice, text);
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('not-sealed');
    const json = await upload(relay, alice, Buffer.from('{"a":1,"b":[2,3]}   '));
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('not-sealed');
    const tiny = await upload(relay, alice, randomBytes(8));
    expect(tiny.status).toBe(400);
    // text after random leading bytes is caught too: the middle and the last 4 KiB are sampled (blob-entropy.test.ts)
    const head = Buffer.concat([randomBytes(4096), text]);
    expect((await upload(relay, alice, head)).body.code).toBe('not-sealed');
  });

  it('takes only application/octet-stream and only API keys', async () => {
    const asJson = await upload(
      relay,
      alice,
      Buffer.from(JSON.stringify({ data: randomBytes(64).toString('base64') })),
      'application/json',
    );
    expect(asJson.status).toBe(415);
    const anon = await fetch(`${relay.url}/api/v1/blobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: randomBytes(100),
    });
    expect(anon.status).toBe(401);
    expect((await call(relay.url, 'GET', '/api/v1/blobs/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(401);
    expect((await call(relay.url, 'GET', '/api/v1/blobs/not-an-id', { auth: alice.apiKey })).status).toBe(400);
    expect((await call(relay.url, 'GET', '/api/v1/blobs/AAAAAAAAAAAAAAAAAAAAAA', { auth: alice.apiKey })).status).toBe(
      404,
    );
  });

  it('lets only the uploading wallet delete: another wallet gets 403 not-uploader and the blob stays', async () => {
    const up = await upload(relay, alice, randomBytes(10 * KIB));
    const byBob = await call(relay.url, 'DELETE', `/api/v1/blobs/${up.body.id}`, { auth: bob.apiKey });
    expect(byBob.status).toBe(403);
    expect(byBob.body.code).toBe('not-uploader');
    expect((await download(relay, bob, up.body.id)).status).toBe(200);
    expect((await call(relay.url, 'DELETE', `/api/v1/blobs/${up.body.id}`, { auth: alice.apiKey })).status).toBe(200);
    expect((await download(relay, bob, up.body.id)).status).toBe(404);
    expect(existsSync(join(relay.dir, 'blobs', up.body.id))).toBe(false);
    expect((await call(relay.url, 'DELETE', `/api/v1/blobs/${up.body.id}`, { auth: alice.apiKey })).status).toBe(404);
  });

  it('answers 507 storage-full to uploads while the disk guard trips', async () => {
    const low = await startRelay({ minFreeDiskMib: 1_073_741_824 });
    try {
      const dave = await signInKnown(low);
      const up = await upload(low, dave, randomBytes(10 * KIB));
      expect(up.status).toBe(507);
      expect(up.body.code).toBe('storage-full');
    } finally {
      await low.close();
    }
  });
});

describe('blob expiry', () => {
  it('an expired blob is 404 at once, and the retention sweep removes its row and its file', async () => {
    const relay = await startRelay({ retentionDays: 1 });
    try {
      const erin = await signIn(relay.url);
      const t0 = Date.now();
      relay.clock.now = t0;
      const up = await upload(relay, erin, randomBytes(20 * KIB));
      expect(up.status).toBe(200);
      const keep = await upload(relay, erin, randomBytes(20 * KIB));
      expect(existsSync(join(relay.dir, 'blobs', up.body.id))).toBe(true);

      relay.clock.now = t0 + 24 * 3600_000 + 1;
      expect((await download(relay, erin, up.body.id)).status).toBe(404);
      // the later-uploaded blob is still a day from its end
      await relay.store.insertBlob(
        { id: BlobFiles.newId(), uploader: erin.address, size: 1, createdAt: t0 + 1000, expiresAt: t0 + 48 * 3600_000 },
        Infinity,
      );
      const files = new BlobFiles(join(relay.dir, 'blobs'));
      expect(await sweepBlobs(relay.store, files, relay.clock.now)).toBe(2);
      expect(await relay.store.getBlob(up.body.id)).toBeNull();
      expect(existsSync(join(relay.dir, 'blobs', up.body.id))).toBe(false);
      expect(await relay.store.getBlob(keep.body.id)).toBeNull();
      expect(await sweepBlobs(relay.store, files, relay.clock.now)).toBe(0);
    } finally {
      await relay.close();
    }
  });
});
