/**
 * History on a new device (docs/wire-format.md, kind `history`).
 *
 * Sending (the old device, on the person's say-so): the archive (HistorySource) is streamed
 * through ChunkSealer under a fresh 32-byte key into a temp file of ciphertext in the profile,
 * uploaded as blobs cut at chunk boundaries, and then one `history` message carrying the blob
 * ids, the key, sizes and the archive's SHA-256 is sealed to the new device alone (its
 * certificate checked by the vault), addressed to our own wallet.
 *
 * Receiving (the new device): the sync pass hands a `history` message to `accept`, which takes
 * it only from this wallet, from a certified device of it other than this one, sealed to this
 * device and naming it in the signed `toDevice`; anything else is refused (reported like any
 * refused message). The accepted transfer is kept as a setting until `importPending` has
 * downloaded the blobs, opened and checked every chunk and the SHA-256 (a first pass that
 * imports nothing), and only then fed the plaintext to the archive reader (HistorySink). A
 * transfer that fails a check is refused and nothing of it is imported. No plaintext byte of
 * the archive touches the disk on either side.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Envelope } from '../../../shared/api/envelopes.js';
import type {
  HistoryImported,
  HistoryOutcome,
  HistoryPhase,
  HistoryProgress,
  HistorySent,
} from '../../../shared/backup/history.js';
import type { OpenedMessage } from '../../vault/worker/vault-protocol.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import type { CertifiedDevices } from '../trust/certified-devices.js';
import {
  ChunkSealer,
  HistoryIntegrityError,
  chunkCount,
  openChunks,
  openedStream,
  sealedLength,
} from './history-crypto.js';
import {
  DEFAULT_CHUNK_BYTES,
  HISTORY_KIND,
  MAX_HISTORY_BLOBS,
  readHistoryFields,
  type HistoryFields,
} from './history-wire.js';
import type { LocalStore } from '../store/local-store.js';
import { MessengerError } from '../core/messenger-error.js';
import { RelayError, isTransient, type RelayApi } from '../network/relay-api.js';
import { envelopesFor } from '../messages/sealed-envelopes.js';
import { GCM_TAG_BYTES } from '../attachments/attachment-wire.js';

/** Writes the plaintext archive into `sink` (and may end it). */
export interface HistorySource {
  readonly format: string;
  write(sink: Writable, onProgress?: (done: number, total: number) => void): Promise<void>;
}

/** Reads a plaintext archive of one of its `formats` from `source` into this profile. */
export interface HistorySink {
  readonly formats: readonly string[];
  read(source: Readable, onProgress?: (done: number, total: number) => void): Promise<HistoryImported>;
}

export interface HistoryTransferDeps {
  api: () => RelayApi;
  vault: Pick<VaultClient, 'sealMessage'>;
  devices: CertifiedDevices;
  store: LocalStore;
  me: () => { address: string; deviceKey: string };
  now: () => number;
  profileDir: string;
  source: () => HistorySource;
  sink: () => HistorySink;
  onProgress?: (p: HistoryProgress) => void;
  onOutcome?: (o: HistoryOutcome) => void;
  /** a new device of this wallet is about to hold its history: what is sent from now on must reach it too */
  onNewOwnDevice?: () => void;
  /** test seams: smaller chunks and blobs make many of each from a small archive */
  chunkBytes?: number;
  blobBytes?: number;
}

/** The relay's default cap is 25 MiB; a blob of whole chunks stays under 24. */
const DEFAULT_BLOB_BYTES = 24 * 1024 * 1024;
const PENDING_SETTING = 'history.incoming';
/** { deviceKey: 'sent' | 'declined' }: how each other device of ours answered the offer of history */
const ANSWERS_SETTING = 'history.answers';

interface PendingTransfer {
  messageId: string;
  fromDevice: string;
  fields: HistoryFields;
}

export class HistoryTransfer {
  private readonly temp: string;
  private importing: Promise<HistoryOutcome | null> | null = null;

  constructor(private readonly d: HistoryTransferDeps) {
    this.temp = join(d.profileDir, 'history');
  }

  /** Packs, seals, uploads and hands this profile's history to `deviceKey`, a certified device of our own wallet. */
  async send(deviceKey: string): Promise<HistorySent> {
    const me = this.d.me();
    const target = deviceKey.toLowerCase();
    if (target === me.deviceKey)
      throw new MessengerError(
        'bad-argument',
        'that is this device; send the history from it to another device of yours',
      );
    // fresh, so that a device revoked a minute ago is not sent years of messages
    const device = (await this.d.devices.fetch(me.address)).find((x) => x.publicKey === target);
    if (!device)
      throw new MessengerError('not-found', `${target.slice(0, 12)}… is not a certified device of this wallet`);
    this.d.onNewOwnDevice?.();
    const progress = (phase: HistoryPhase, done: number, total: number) =>
      this.d.onProgress?.({ direction: 'send', deviceKey: target, phase, done, total });

    const key = randomBytes(32);
    const chunkSize = this.d.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    mkdirSync(this.temp, { recursive: true, mode: 0o700 });
    const sealedPath = join(this.temp, `out-${randomUUID()}.sealed`);
    try {
      const source = this.d.source();
      const sealer = new ChunkSealer(key, chunkSize);
      const written = pipeline(sealer, createWriteStream(sealedPath, { mode: 0o600 }));
      try {
        await source.write(sealer, (done, total) => progress('pack', done, total));
        if (!sealer.writableEnded) sealer.end();
      } catch (e) {
        sealer.destroy(e as Error);
        await written.catch(() => undefined);
        throw e;
      }
      await written;
      const size = sealer.size();
      const length = sealedLength(size, chunkSize);
      const ranges = blobRanges(size, chunkSize, this.d.blobBytes ?? DEFAULT_BLOB_BYTES);
      if (ranges.length > MAX_HISTORY_BLOBS)
        throw new MessengerError('bad-argument', `the history is too large to send (${size} bytes)`);
      const blobs: HistoryFields['blobs'] = [];
      for (const r of ranges) {
        const sent = blobs.reduce((n, b) => n + b.size, 0);
        const up = await this.d.api().uploadBlob(
          () => createReadStream(sealedPath, { start: r.start, end: r.end - 1 }),
          r.end - r.start,
          (done) => progress('upload', sent + done, length),
        );
        if (up.size !== r.end - r.start)
          throw new MessengerError('bad-argument', 'the relay stored a different number of bytes than were sent');
        blobs.push({ id: up.id, size: up.size });
      }
      const fields: HistoryFields = {
        toDevice: target,
        format: source.format,
        key: key.toString('base64'),
        chunkSize,
        size,
        sha256: sealer.sha256(),
        blobs,
      };
      const message = {
        id: randomUUID(),
        kind: HISTORY_KIND,
        sentAt: new Date(this.d.now()).toISOString(),
        to: me.address,
        device: me.deviceKey,
        ...fields,
      };
      const sealed = await this.d.vault.sealMessage({
        frame: 'direct',
        message,
        recipients: [{ deviceKey: target, address: me.address, certificate: device.certificate }],
      });
      await this.d.api().send(envelopesFor(sealed.sealed, [{ address: me.address }]));
      this.answer(target, 'sent');
      return { deviceKey: target, size, blobs: blobs.length };
    } finally {
      await rm(sealedPath, { force: true });
    }
  }

  /** "Not now" to sending the history to `deviceKey`, remembered across restarts. */
  decline(deviceKey: string): void {
    this.answer(deviceKey.toLowerCase(), 'declined');
  }

  /** How each other device of ours answered the offer of this device's history. */
  answers(): Record<string, 'sent' | 'declined'> {
    const raw = this.d.store.getSetting(ANSWERS_SETTING);
    try {
      return raw ? (JSON.parse(raw) as Record<string, 'sent' | 'declined'>) : {};
    } catch {
      return {};
    }
  }

  private answer(deviceKey: string, how: 'sent' | 'declined'): void {
    this.d.store.setSetting(ANSWERS_SETTING, JSON.stringify({ ...this.answers(), [deviceKey]: how }));
  }

  /**
   * A `history` message the sync pass opened: '' when it is kept for `importPending` (or is
   * not for us to act on), otherwise why it was refused. Network trouble propagates (the
   * envelope then stays on the relay for the next pass).
   */
  async accept(env: Envelope, opened: OpenedMessage): Promise<string> {
    const me = this.d.me();
    const m = opened.m as Record<string, unknown>;
    const author = opened.author.toLowerCase();
    if (author !== me.address) return `history sent by ${author}, another wallet, was refused`;
    if (opened.kind !== 'direct' || env.recipientDeviceKey?.toLowerCase() !== me.deviceKey)
      return 'history not sealed to this device alone was refused';
    const fields = readHistoryFields(m);
    if (fields === null) return 'a malformed history message was refused';
    if (fields.toDevice !== me.deviceKey || m.to !== me.address) return 'history meant for another device was refused';
    const from = typeof m.device === 'string' ? m.device.toLowerCase() : '';
    if (!/^[0-9a-f]{64}$/.test(from) || from === me.deviceKey)
      return 'the history message names no other sending device';
    if (!(await this.d.devices.isCertified(me.address, from)))
      return `device ${from.slice(0, 12)}… is not a certified device of this wallet; its history was refused`;
    const messageId = String(m.id).toLowerCase();
    // it names the temp files of the download
    if (!/^[0-9a-f-]{36}$/.test(messageId)) return 'a malformed history message was refused';
    const pending: PendingTransfer = { messageId, fromDevice: from, fields };
    this.d.store.setSetting(PENDING_SETTING, JSON.stringify(pending));
    return '';
  }

  hasPending(): boolean {
    return this.d.store.getSetting(PENDING_SETTING) !== null;
  }

  /**
   * Downloads, checks and imports the transfer kept by `accept`; null when there is none, or
   * when the relay could not be reached (it stays for a later call). A call during a run joins it.
   */
  importPending(): Promise<HistoryOutcome | null> {
    return (this.importing ??= this.importKept().finally(() => (this.importing = null)));
  }

  private async importKept(): Promise<HistoryOutcome | null> {
    const raw = this.d.store.getSetting(PENDING_SETTING);
    if (raw === null) return null;
    const t = JSON.parse(raw) as PendingTransfer;
    const progress = (phase: HistoryPhase, done: number, total: number) =>
      this.d.onProgress?.({ direction: 'receive', deviceKey: t.fromDevice, phase, done, total });
    const sink = this.d.sink();
    const paths = t.fields.blobs.map((_, i) => join(this.temp, `in-${t.messageId}.${i}.sealed`));
    mkdirSync(this.temp, { recursive: true, mode: 0o700 });
    let outcome: HistoryOutcome;
    try {
      if (!sink.formats.includes(t.fields.format))
        throw new HistoryIntegrityError(`this version cannot read history archives of format "${t.fields.format}"`);
      const length = t.fields.blobs.reduce((n, b) => n + b.size, 0);
      if (length !== sealedLength(t.fields.size, t.fields.chunkSize))
        throw new HistoryIntegrityError("the blobs' sizes do not add up to the archive's");
      let got = 0;
      for (const [i, b] of t.fields.blobs.entries()) {
        await this.d
          .api()
          .downloadBlob(b.id, createWriteStream(paths[i], { mode: 0o600 }), b.size, (done) =>
            progress('download', got + done, length),
          );
        if ((await stat(paths[i])).size !== b.size)
          throw new HistoryIntegrityError(`blob ${i + 1} holds a different number of bytes than the message says`);
        got += b.size;
      }
      const key = Buffer.from(t.fields.key, 'base64');
      const expect = { size: t.fields.size, sha256: t.fields.sha256, chunkSize: t.fields.chunkSize };
      // every chunk and the hash are checked before a single row is imported
      let checked = 0;
      for await (const plain of openChunks(readFiles(paths), key, expect))
        progress('verify', (checked += plain.length), t.fields.size);
      const imported = await sink.read(openedStream(readFiles(paths), key, expect), (done, total) =>
        progress('import', done, total),
      );
      outcome = { state: 'received', fromDevice: t.fromDevice, ...imported };
      // ours to delete (the same wallet uploaded them); they would expire anyway
      for (const b of t.fields.blobs)
        await this.d
          .api()
          .deleteBlob(b.id)
          .catch(() => undefined);
    } catch (e) {
      const reason =
        e instanceof HistoryIntegrityError
          ? `${e.message}; nothing was imported`
          : e instanceof RelayError && e.status === 404
            ? 'the relay no longer has the history (it expired or was deleted); nothing was imported'
            : isTransient(e)
              ? null
              : `the history could not be imported: ${e instanceof Error ? e.message : String(e)}`;
      if (reason === null) return null;
      outcome = { state: 'refused', fromDevice: t.fromDevice, reason };
    } finally {
      for (const p of paths) await rm(p, { force: true });
    }
    this.d.store.setSetting(PENDING_SETTING, null);
    this.d.onOutcome?.(outcome);
    return outcome;
  }
}

/** Byte ranges of the sealed stream, each a blob of whole chunks. */
function blobRanges(size: number, chunkSize: number, blobBytes: number): Array<{ start: number; end: number }> {
  const perBlob = Math.max(1, Math.floor(blobBytes / (chunkSize + GCM_TAG_BYTES)));
  const total = sealedLength(size, chunkSize);
  const count = chunkCount(size, chunkSize);
  const out: Array<{ start: number; end: number }> = [];
  for (let first = 0; first < count; first += perBlob) {
    const start = first * (chunkSize + GCM_TAG_BYTES);
    out.push({ start, end: Math.min(total, start + perBlob * (chunkSize + GCM_TAG_BYTES)) });
  }
  return out;
}

async function* readFiles(paths: readonly string[]): AsyncGenerator<Buffer> {
  for (const p of paths) for await (const piece of createReadStream(p) as AsyncIterable<Buffer>) yield piece;
}
