/**
 * # The `.relaybackup` file: an archive (backup-archive.ts) under a passphrase
 *
 * Layout (integers big-endian):
 *
 *     header, 64 bytes:
 *       0  magic "RLYBAKUP" (8)
 *       8  format version = 1 (1)
 *       9  KDF = 1, scrypt (1)
 *      10  log2 N (1) · 11 r (1) · 12 p (1)        scrypt cost; written 17, 8, 1
 *      13  salt (16)                              random per file
 *      29  nonce prefix (7)                       random per file
 *      36  plaintext bytes per chunk (4)          written 65536
 *      40  passphrase check (16)                  HMAC-SHA256(key, "relay-backup passphrase check"), first 16 bytes
 *      56  header checksum (8)                    SHA-256 of bytes 0–55, first 8 bytes
 *     then chunks, each: ciphertext length (4) ‖ AES-256-GCM ciphertext ‖ tag (16)
 *
 * key = scrypt(passphrase NFC, salt, N, r, p, 32 bytes). Chunk i is sealed with nonce
 * `prefix(7) ‖ i (4) ‖ final (1)` and the 64 header bytes as associated data, so each chunk is
 * bound to the file's parameters, its place, and whether it is the last (the STREAM
 * construction): a reordered, dropped or altered chunk fails its tag, a file cut after any chunk
 * lacks the final one, and bytes after the final chunk are refused. Every chunk but the last
 * holds exactly the chunk size; the last one may be empty.
 *
 * A wrong passphrase fails the check before any chunk is read ('backup-wrong-passphrase'); any
 * other fault is 'backup-damaged'. The reader yields a chunk's plaintext only once its tag has
 * passed, but the file as a whole is known good only when the final chunk has passed: a restore
 * writes into a new database and adopts it only then.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { MessengerError } from '../core/messenger-error.js';

const MAGIC = Buffer.from('RLYBAKUP', 'ascii');
const FORMAT_VERSION = 1;
const KDF_SCRYPT = 1;
const HEADER_BYTES = 64;
const TAG_BYTES = 16;
const CHECK_LABEL = 'relay-backup passphrase check';

export interface BackupParams {
  log2N: number;
  r: number;
  p: number;
  chunkBytes: number;
}

/** scrypt N = 2^17, r = 8 (128 MiB, about a second here); 64 KiB chunks. */
export const DEFAULT_BACKUP_PARAMS: BackupParams = { log2N: 17, r: 8, p: 1, chunkBytes: 64 * 1024 };

/** What a reader accepts: a file must not make it spend gigabytes or hours on its key. */
const LIMITS = { log2N: [10, 20], r: [1, 32], p: [1, 16], chunkBytes: [1024, 16 << 20] } as const;
const MAX_SCRYPT_BYTES = 1 << 30;

const damaged = (why: string) =>
  new MessengerError('backup-damaged', `the backup file is damaged or was altered (${why})`);

// Node's scrypt runs in the libuv thread pool: a second of key derivation never holds the
// event loop (a scrypt in JavaScript stalls it even when it yields every 10 ms: docs/benchmarks.md, backup).
function deriveKey(passphrase: string, salt: Uint8Array, p: BackupParams): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    scrypt(
      passphrase.normalize('NFC'),
      salt,
      32,
      { N: 2 ** p.log2N, r: p.r, p: p.p, maxmem: MAX_SCRYPT_BYTES + (1 << 20) },
      (e, key) => (e ? reject(e) : resolve(key)),
    );
  });
}

const checkOf = (key: Uint8Array) => createHmac('sha256', key).update(CHECK_LABEL).digest().subarray(0, 16);

function nonceOf(prefix: Buffer, index: number, final: boolean): Buffer {
  const n = Buffer.alloc(12);
  prefix.copy(n, 0);
  n.writeUInt32BE(index, 7);
  n[11] = final ? 1 : 0;
  return n;
}

function seal(
  key: Uint8Array,
  header: Buffer,
  prefix: Buffer,
  index: number,
  final: boolean,
  plain: Uint8Array,
): Buffer {
  const c = createCipheriv('aes-256-gcm', key, nonceOf(prefix, index, final)).setAAD(header);
  const body = Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
  const out = Buffer.alloc(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  body.copy(out, 4);
  return out;
}

/**
 * Writes a backup file at `path`: `produce` writes the plaintext into the sink it is given.
 * The file is written beside as `path.part`, synced, and renamed over `path` only once complete.
 */
export async function writeBackupFile(
  path: string,
  passphrase: string,
  produce: (sink: (chunk: Uint8Array) => Promise<void>) => Promise<void>,
  params: BackupParams = DEFAULT_BACKUP_PARAMS,
): Promise<{ bytes: number }> {
  if (passphrase.length === 0) throw new MessengerError('bad-argument', 'a backup needs a passphrase');
  const salt = randomBytes(16);
  const prefix = randomBytes(7);
  const key = await deriveKey(passphrase, salt, params);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header[8] = FORMAT_VERSION;
  header[9] = KDF_SCRYPT;
  header[10] = params.log2N;
  header[11] = params.r;
  header[12] = params.p;
  salt.copy(header, 13);
  prefix.copy(header, 29);
  header.writeUInt32BE(params.chunkBytes, 36);
  checkOf(key).copy(header, 40);
  createHash('sha256').update(header.subarray(0, 56)).digest().copy(header, 56, 0, 8);

  const temp = `${path}.part`;
  const fh = await open(temp, 'w', 0o600);
  let bytes = 0;
  const put = async (b: Buffer) => {
    await fh.write(b);
    bytes += b.length;
  };
  try {
    await put(header);
    let index = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    await produce(async (chunk) => {
      pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      pendingBytes += chunk.byteLength;
      // a full chunk goes out only once more follows: the last one must carry the final flag
      while (pendingBytes > params.chunkBytes) {
        const all = Buffer.concat(pending);
        await put(seal(key, header, prefix, index++, false, all.subarray(0, params.chunkBytes)));
        pending = [all.subarray(params.chunkBytes)];
        pendingBytes = pending[0].length;
      }
    });
    await put(seal(key, header, prefix, index, true, Buffer.concat(pending)));
    await fh.sync();
    await fh.close();
    await rename(temp, path);
    return { bytes };
  } catch (e) {
    await fh.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw e;
  }
}

function readParams(header: Buffer): BackupParams {
  if (!header.subarray(0, 8).equals(MAGIC))
    throw new MessengerError('backup-damaged', 'this is not a Relay backup file');
  const sum = createHash('sha256').update(header.subarray(0, 56)).digest().subarray(0, 8);
  if (!sum.equals(header.subarray(56, 64))) throw damaged('its header does not match its checksum');
  if (header[8] !== FORMAT_VERSION || header[9] !== KDF_SCRYPT)
    throw new MessengerError('backup-damaged', `backup format ${header[8]} is not one this app reads; update the app`);
  const p: BackupParams = { log2N: header[10], r: header[11], p: header[12], chunkBytes: header.readUInt32BE(36) };
  for (const [name, [lo, hi]] of Object.entries(LIMITS)) {
    const v = p[name as keyof BackupParams];
    if (v < lo || v > hi) throw damaged(`${name} ${v} is out of range`);
  }
  if (128 * p.r * 2 ** p.log2N > MAX_SCRYPT_BYTES) throw damaged('its scrypt parameters ask for too much memory');
  return p;
}

/**
 * The plaintext of the backup file at `path`, chunk by chunk, each yielded once its tag passed.
 * Throws 'backup-wrong-passphrase' before the first chunk, or 'backup-damaged' at the first fault
 * (the last one possible being a file that ends without its final chunk).
 */
export async function* readBackupFile(path: string, passphrase: string): AsyncGenerator<Uint8Array> {
  const fh = await open(path, 'r').catch(() => {
    throw new MessengerError('not-found', `cannot read the backup file ${path}`);
  });
  try {
    const size = (await fh.stat()).size;
    const header = Buffer.alloc(HEADER_BYTES);
    if ((await fh.read(header, 0, HEADER_BYTES, 0)).bytesRead < HEADER_BYTES)
      throw new MessengerError('backup-damaged', 'this is not a Relay backup file (too short)');
    const params = readParams(header);
    const key = await deriveKey(passphrase, header.subarray(13, 29), params);
    if (!checkOf(key).equals(header.subarray(40, 56)))
      throw new MessengerError('backup-wrong-passphrase', 'that passphrase does not open this backup');
    const prefix = header.subarray(29, 36);
    const len = Buffer.alloc(4);
    let at = HEADER_BYTES;
    for (let index = 0; ; index++) {
      if (at === size) throw damaged('it ends before its last part: the file is incomplete');
      if ((await fh.read(len, 0, 4, at)).bytesRead < 4) throw damaged('it ends in the middle of a part');
      const n = len.readUInt32BE(0);
      if (n < TAG_BYTES || n > params.chunkBytes + TAG_BYTES) throw damaged(`part ${index} has an impossible length`);
      const body = Buffer.alloc(n);
      if ((await fh.read(body, 0, n, at + 4)).bytesRead < n) throw damaged('it ends in the middle of a part');
      at += 4 + n;
      // the only chunk that may be short is the final one; whether this one is, its tag tells
      const final = at === size;
      if (!final && n !== params.chunkBytes + TAG_BYTES)
        throw damaged(`part ${index} is shorter than the file's chunk size`);
      let plain: Buffer;
      try {
        const d = createDecipheriv('aes-256-gcm', key, nonceOf(prefix, index, final))
          .setAAD(header)
          .setAuthTag(body.subarray(n - TAG_BYTES));
        plain = Buffer.concat([d.update(body.subarray(0, n - TAG_BYTES)), d.final()]);
      } catch {
        throw damaged(
          final
            ? `its last part (${index}) fails authentication: it was cut short or altered`
            : `part ${index} fails authentication`,
        );
      }
      if (plain.length > 0) yield plain;
      if (final) return;
    }
  } finally {
    await fh.close();
  }
}
