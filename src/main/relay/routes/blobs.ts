import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { BlobParams, BlobUploadResult } from '../../../shared/api/blobs.js';
import { ErrorBody, OkBody } from '../../../shared/api/common.js';
import type { BlobFiles } from '../blobs/blob-files.js';
import { apiKeyCaller } from '../http/auth.js';
import { parseByteRange } from '../http/byte-range.js';
import { acceptAnyBody } from '../http/envelope-batch.js';
import { HttpError, badRequest, forbidden, notFound, tooLarge } from '../http/errors.js';
import { iso } from '../http/present.js';
import { fromStore } from '../http/store-errors.js';
import { MIN_CIPHERTEXT, looksUnsealed } from '../sealed-fields.js';
import {
  ENTROPY_WINDOW,
  MIN_BITS_PER_BYTE,
  MIN_ENTROPY_BLOB,
  entropyWindows,
  tooRegular,
} from '../blobs/blob-entropy.js';
import type { RelayStore } from '../store/store.js';
import { apiKeyAuth, errorResponses } from './route-docs.js';

/** Leading bytes of an upload held to the envelope plaintext check (random bytes fail it within a few dozen) and to the first entropy window. */
const HEAD_BYTES = ENTROPY_WINDOW;
const MIB = 1024 * 1024;

export interface BlobOptions {
  now: () => number;
  /** null: this relay was given no folder for blobs, and the routes say so (503) */
  files: BlobFiles | null;
  maxBlobBytes: number;
  /** per uploading wallet, over its unexpired blobs */
  quotaBytes: number;
  retentionMs: number;
  /** throws 507 storage-full while the disk is low */
  checkDisk: () => Promise<void>;
}

const tooRegularBlob = () =>
  badRequest(
    `the blob does not look encrypted: some of its bytes are too regular (under ${MIN_BITS_PER_BYTE} bits of entropy per byte); encrypt it on the client first`,
    'not-sealed',
  );
const describe = (description: string) => ({ ...ErrorBody, description });
const Binary = { type: 'string', format: 'binary' } as const;

/** Uploading, downloading (with Range) and deleting attachment ciphertext (docs/protocol.md §14 Blobs). */
export async function blobRoutes(app: FastifyInstance, store: RelayStore, opts: BlobOptions): Promise<void> {
  const auth = { auth: 'api-key' as const };
  const files = (): BlobFiles => {
    if (!opts.files)
      throw new HttpError(503, 'this relay keeps no blobs (no blob folder configured)', 'blobs-unavailable');
    return opts.files;
  };
  const maxMib = Math.round((opts.maxBlobBytes / MIB) * 100) / 100;

  // Its own scope, so that only these routes take raw bytes: the body reaches the handler as the request stream.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));

    scope.post(
      '/api/v1/blobs',
      {
        config: auth,
        validatorCompiler: acceptAnyBody,
        schema: {
          tags: ['blobs'],
          summary: 'Upload a blob of ciphertext (an encrypted attachment)',
          security: apiKeyAuth,
          description:
            `The body is the ciphertext itself (\`Content-Type: application/octet-stream\`), at most ${maxMib} MiB; the client encrypts each file ` +
            'with a fresh AES-256-GCM key that travels inside the sealed message. Bytes that do not look sealed are refused with 400 `not-sealed`: ' +
            `the envelope plaintext check on the first ${HEAD_BYTES} bytes and, for blobs of ${MIN_ENTROPY_BLOB} bytes or more, a byte entropy of at least ` +
            `${MIN_BITS_PER_BYTE} bits per byte in each of the first, a middle and the last ${ENTROPY_WINDOW} bytes (the whole blob when shorter). ` +
            "The answer comes once the bytes are on disk. Blobs count against the uploader's " +
            'storage quota (429 `blob-quota-full`) and expire with the retention period; a relay low on disk answers 507 `storage-full`.',
          consumes: ['application/octet-stream'],
          body: Binary,
          response: {
            200: BlobUploadResult,
            ...errorResponses(400, 401, 429, 503, 507),
            413: describe(`Over the relay's blob size cap (${maxMib} MiB), code \`blob-too-large\``),
            415: describe('The body is not `application/octet-stream`'),
          },
        },
      },
      async (req) => {
        const caller = apiKeyCaller(req);
        const blobs = files();
        if (!(req.body instanceof Readable))
          throw new HttpError(
            415,
            'send the ciphertext as the body with Content-Type: application/octet-stream',
            'unsupported-media-type',
          );
        const now = opts.now();
        const declared = Number(req.headers['content-length'] ?? NaN);
        if (declared > opts.maxBlobBytes)
          throw tooLarge(`a blob is at most ${opts.maxBlobBytes} bytes`, 'blob-too-large');
        await opts.checkDisk();
        if (Number.isFinite(declared) && (await store.blobUsage(caller.address, now)) + declared > opts.quotaBytes) {
          throw new HttpError(
            429,
            `this upload would pass your blob storage quota of ${opts.quotaBytes} bytes; delete blobs or wait for them to expire`,
            'blob-quota-full',
          );
        }
        const received = await blobs.receive(req.body, {
          maxBytes: opts.maxBlobBytes,
          headBytes: HEAD_BYTES,
          checkHead(head) {
            if (head.length < MIN_CIPHERTEXT)
              throw badRequest(`a blob is at least ${MIN_CIPHERTEXT} bytes (GCM tag + data)`, 'not-sealed');
            if (looksUnsealed(head))
              throw badRequest('the blob looks like plaintext; encrypt it on the client first', 'not-sealed');
            // the first window is the head itself
            if (head.length >= MIN_ENTROPY_BLOB && tooRegular(head)) throw tooRegularBlob();
          },
          async checkWritten(size, read) {
            for (const w of entropyWindows(size).slice(1))
              if (tooRegular(await read(w.start, w.length))) throw tooRegularBlob();
          },
          onTooLarge() {
            throw tooLarge(`a blob is at most ${opts.maxBlobBytes} bytes`, 'blob-too-large');
          },
        });
        const row = {
          id: received.id,
          uploader: caller.address,
          size: received.size,
          createdAt: now,
          expiresAt: now + opts.retentionMs,
        };
        try {
          await received.keep();
          await fromStore(store.insertBlob(row, opts.quotaBytes));
        } catch (err) {
          await received.discard();
          await blobs.remove(received.id);
          throw err;
        }
        return { id: row.id, size: row.size, expiresAt: iso(row.expiresAt) };
      },
    );

    scope.get<{ Params: { id: string } }>(
      '/api/v1/blobs/:id',
      {
        config: auth,
        schema: {
          tags: ['blobs'],
          summary: 'Download a blob (supports Range)',
          security: apiKeyAuth,
          description:
            'Any valid API key may download a blob by its id (the id is the capability; the bytes are ciphertext). ' +
            'A single `Range: bytes=a-b` (or `a-`, `-n`) is answered 206 with `Content-Range`; a range past the end is 416; other forms get the whole blob. ' +
            '404 for an unknown or expired id.',
          params: BlobParams,
          response: {
            200: { description: 'The whole blob', content: { 'application/octet-stream': { schema: Binary } } },
            206: { description: 'The requested range', content: { 'application/octet-stream': { schema: Binary } } },
            ...errorResponses(400, 401, 404, 429),
            416: describe('The range starts past the end of the blob (`Content-Range: bytes */<size>`)'),
          },
        },
      },
      async (req, reply) => {
        apiKeyCaller(req);
        const blobs = files();
        const row = await store.getBlob(req.params.id);
        if (!row || row.expiresAt <= opts.now()) throw notFound('no such blob (or it has expired)');
        const range = parseByteRange(req.headers.range, row.size);
        reply.header('Accept-Ranges', 'bytes').header('Cache-Control', 'no-store');
        if (range === 'unsatisfiable') {
          reply.header('Content-Range', `bytes */${row.size}`);
          throw new HttpError(416, `the blob has ${row.size} bytes`, 'range-not-satisfiable');
        }
        const span = range ?? { start: 0, end: row.size - 1 };
        const stream = await blobs.read(row.id, span);
        if (!stream) throw notFound('no such blob (or it has expired)');
        if (range) reply.code(206).header('Content-Range', `bytes ${span.start}-${span.end}/${row.size}`);
        reply.header('Content-Length', String(span.end - span.start + 1));
        return reply.type('application/octet-stream').send(stream);
      },
    );

    scope.delete<{ Params: { id: string } }>(
      '/api/v1/blobs/:id',
      {
        config: auth,
        schema: {
          tags: ['blobs'],
          summary: 'Delete a blob you uploaded',
          security: apiKeyAuth,
          description:
            'Only the uploading wallet may delete a blob (any of its keys): another wallet gets 403 `not-uploader`; an unknown id 404.',
          params: BlobParams,
          response: { 200: OkBody, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (req) => {
        const caller = apiKeyCaller(req);
        const blobs = files();
        const outcome = await store.deleteBlob(req.params.id, caller.address);
        if (outcome === 'not-found') throw notFound('no such blob');
        if (outcome === 'not-yours')
          throw forbidden('only the wallet that uploaded a blob may delete it', 'not-uploader');
        await blobs.remove(req.params.id);
        return { ok: true as const };
      },
    );
  });
}
