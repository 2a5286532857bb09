/**
 * # The archive: a profile's history as one plaintext record stream
 *
 * What a backup file (backup-file.ts, under a passphrase) and a history transfer to a new device
 * (sealed to its key) both carry. Neither reads this stream unsealed from disk: whoever moves it
 * seals it, and authenticates it as a whole.
 *
 * ## API
 * - `writeArchive(store, files, wallet, sink, onProgress?)`: streams the archive of `store` into
 *   `sink` (called with each record, awaited, so a slow sink holds the writer back: at most one
 *   page of rows or one 64 KiB piece of a file is in memory). `files` reads the kept attachment
 *   files' plaintext (`Attachments.archiveFiles()`). `wallet` is recorded in the head.
 * - `readArchive(source, target, onProgress?)`: reads an archive from `source` (any chunking) into
 *   `target.store`, which must be a new, empty database (a restore writes into a new file and only
 *   then adopts it: BackupStore.adopt); files go through `target.files`. Refuses, by throwing
 *   ArchiveError, an archive of another wallet than `target.wallet`, of a newer schema, or one that
 *   is malformed or ends early; the caller then throws the new database away.
 * - `onProgress({ done, total })`: units are rows plus KiB of files, `total` known from the head.
 *
 * ## Records
 * Each record is `type (1 byte) ‖ length (4 bytes, big-endian) ‖ body (length bytes)`:
 * - `H` head, JSON: `{ format: 'relay-archive', version: 1, schema, wallet, createdAt, rows: { table: count }, files: { count, bytes } }`;
 * - `R` rows, JSON: `{ table, rows: [ {column: value} ] }` (ARCHIVE_TABLES order; each row as stored);
 * - `F` file, JSON: `{ messageId, index, size }`, followed by `D` records of its plaintext (size bytes in all);
 * - `E` end, empty: the archive is complete (the counts of the head are checked then).
 * Files follow all rows: a file's SHA-256 is checked against its attachment row as it is restored.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { LocalStore } from '../store/local-store.js';
import {
  ARCHIVE_TABLES,
  isPortableSetting,
  type ArchiveRow,
  type ArchiveTable,
  type BackupStore,
  type RowValue,
} from './backup-store.js';

export const ARCHIVE_FORMAT = 'relay-archive';
export const ARCHIVE_VERSION = 1;
/** rows per record, and the most bytes of JSON one record of rows may reach before it is sent */
const PAGE_ROWS = 500;
const PAGE_BYTES = 1 << 20;
/** the largest record a reader accepts: bounds its memory whatever the input */
const MAX_RECORD_BYTES = 16 << 20;
const FILE_PIECE = 64 << 10;

export interface ArchiveProgress {
  done: number;
  total: number;
}
export type OnProgress = (p: ArchiveProgress) => void;

export interface ArchiveHead {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  schema: number;
  wallet: string;
  createdAt: string;
  rows: Partial<Record<ArchiveTable, number>>;
  files: { count: number; bytes: number };
}

/** Where an archive's attachment files come from and go to (plaintext in, kept at rest). */
export interface ArchiveFiles {
  read(path: string): AsyncIterable<Uint8Array>;
  create(
    messageId: string,
    index: number,
  ): { path: string; write(chunk: Uint8Array): Promise<void>; end(): Promise<void>; abort(): Promise<void> };
}

export type ArchiveErrorCode =
  'archive-malformed' | 'archive-truncated' | 'archive-other-wallet' | 'archive-too-new' | 'archive-target-not-empty';

export class ArchiveError extends Error {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ArchiveError';
  }
}

const enum Rec {
  Head = 0x48, // H
  Rows = 0x52, // R
  File = 0x46, // F
  Data = 0x44, // D
  End = 0x45, // E
}

function record(type: Rec, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type;
  new DataView(out.buffer).setUint32(1, body.length);
  out.set(body, 5);
  return out;
}

const json = (type: Rec, value: unknown) => record(type, new TextEncoder().encode(JSON.stringify(value)));

type Awaitable<T> = T | Promise<T>;

/**
 * The database side of an archive: a store on this thread (archiveDbOf) or one the store worker
 * holds (store-worker-client.ts), whose every call is a round trip. Rows are written and read
 * through it a page at a time, so either way the caller's event loop turns between pages.
 */
export interface ArchiveDb {
  schemaVersion(): Awaitable<number>;
  count(table: ArchiveTable): Awaitable<number>;
  page(table: ArchiveTable, after: RowValue, limit: number): Awaitable<{ rows: ArchiveRow[]; next: RowValue }>;
  holdsNoHistory(): Awaitable<boolean>;
  /** page() as the JSON text of each row that travels (only portable settings of `profile`), made where the database is */
  rowTexts(table: ArchiveTable, after: RowValue, limit: number): Awaitable<{ texts: string[]; next: RowValue }>;
  /** checks and writes one `R` record's body (writeRowsRecord), where the database is */
  writeRows(body: Uint8Array): Awaitable<RowsWritten>;
  setAttachmentPath(messageId: string, index: number, path: string): Awaitable<void>;
  refetchUnkeptFiles(): Awaitable<number>;
  hasAttachment(messageId: string, index: number): Awaitable<boolean>;
  /** the SHA-256 an attachment row promises, null when there is no such row */
  attachmentSha256(messageId: string, index: number): Awaitable<string | null>;
}

/** The ArchiveDb of a store open on this thread. */
export function archiveDbOf(store: LocalStore): ArchiveDb {
  const b = store.backup;
  return {
    schemaVersion: () => b.schemaVersion(),
    count: (t) => b.count(t),
    page: (t, after, limit) => b.page(t, after, limit),
    holdsNoHistory: () => b.holdsNoHistory(),
    rowTexts: (t, after, limit) => rowTexts(b, t, after, limit),
    writeRows: (body) => writeRowsRecord(b, body),
    setAttachmentPath: (id, index, path) => b.setAttachmentPath(id, index, path),
    refetchUnkeptFiles: () => b.refetchUnkeptFiles(),
    hasAttachment: (id, index) => store.attachments.has(id, index),
    attachmentSha256: (id, index) => store.attachments.ofMessage(id).find((r) => r.index === index)?.sha256 ?? null,
  };
}

function rowTexts(
  b: BackupStore,
  table: ArchiveTable,
  after: RowValue,
  limit: number,
): { texts: string[]; next: RowValue } {
  const { rows, next } = b.page(table, after, limit);
  const travel = table === 'profile' ? rows.filter((r) => isPortableSetting(String(r.key))) : rows;
  return { texts: travel.map((r) => JSON.stringify(r)), next };
}

export type RowsWritten = { table: ArchiveTable; count: number } | { code: ArchiveErrorCode; message: string };

/**
 * One `R` record of an archive parsed, checked (a table the archive carries, rows of plain
 * values, columns this schema has) and written in one transaction; a refusal is returned, not
 * thrown, so that it crosses from the store worker with its code. The parsing happens beside
 * the database: the main thread only passes the record's bytes on.
 */
export function writeRowsRecord(b: BackupStore, body: Uint8Array): RowsWritten {
  try {
    const { table, rows } = checkRows(parse(body));
    const keep = rows.map((r) => (table === 'attachments' ? { ...r, path: null } : r));
    for (const row of keep) {
      const bad = b.hasColumns(table, row);
      if (bad !== null)
        throw new ArchiveError(
          'archive-malformed',
          `the archive's ${table} has a column this app does not know: ${bad}`,
        );
    }
    try {
      b.insertRows(table, keep);
    } catch (e) {
      throw new ArchiveError(
        'archive-malformed',
        `rows of ${table} could not be restored: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    return { table, count: rows.length };
  } catch (e) {
    if (e instanceof ArchiveError) return { code: e.code, message: e.message };
    throw e;
  }
}

const dbOf = (store: LocalStore | ArchiveDb): ArchiveDb => ('backup' in store ? archiveDbOf(store) : store);

interface KeptFile {
  messageId: string;
  index: number;
  size: number;
  path: string;
}

async function keptFiles(store: ArchiveDb): Promise<KeptFile[]> {
  const out: KeptFile[] = [];
  for (let after: ArchiveRow[string] = null, more = true; more;) {
    const { rows, next } = await store.page('attachments', after, 2000);
    for (const r of rows)
      if (r.state === 'saved' && typeof r.path === 'string')
        out.push({ messageId: String(r.message_id), index: Number(r.idx), size: Number(r.size), path: r.path });
    after = next;
    more = next !== null;
  }
  return out;
}

/** Streams the archive of `store` into `sink` (see the module's head). */
export async function writeArchive(
  store: LocalStore | ArchiveDb,
  files: ArchiveFiles,
  wallet: string,
  sink: (chunk: Uint8Array) => Promise<void>,
  onProgress?: OnProgress,
): Promise<ArchiveHead> {
  const db = dbOf(store);
  const rows: Partial<Record<ArchiveTable, number>> = {};
  for (const { name } of ARCHIVE_TABLES) rows[name] = await db.count(name);
  // only some settings travel (a handful of rows: one page)
  rows.profile = (await db.page('profile', null, 10_000)).rows.filter((r) => isPortableSetting(String(r.key))).length;
  // the file list is small (one entry per kept file), the messages are not. A kept file gone
  // from disk is left out rather than failing the whole archive: the reader fetches it again.
  const kept = (await keptFiles(db)).filter((f) => existsSync(f.path));
  const head: ArchiveHead = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    schema: await db.schemaVersion(),
    wallet: wallet.toLowerCase(),
    createdAt: new Date().toISOString(),
    rows,
    files: { count: kept.length, bytes: kept.reduce((n, f) => n + f.size, 0) },
  };
  const total = totalOf(head);
  let done = 0;
  await sink(json(Rec.Head, head));
  const written: Partial<Record<ArchiveTable, number>> = {};
  for (const { name } of ARCHIVE_TABLES) {
    let batch: string[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await sink(
        record(Rec.Rows, new TextEncoder().encode(`{"table":${JSON.stringify(name)},"rows":[${batch.join(',')}]}`)),
      );
      done += batch.length;
      written[name] = (written[name] ?? 0) + batch.length;
      batch = [];
      bytes = 0;
      onProgress?.({ done, total });
    };
    for (let after: ArchiveRow[string] = null, more = true; more;) {
      const page = await db.rowTexts(name, after, PAGE_ROWS);
      for (const text of page.texts) {
        batch.push(text);
        bytes += text.length;
        if (batch.length >= PAGE_ROWS || bytes >= PAGE_BYTES) await flush();
      }
      after = page.next;
      more = page.next !== null;
    }
    await flush();
  }
  // what was written is what the head promised, bar a message that arrived or expired
  // meanwhile: the reader checks the end record's counts
  let fileBytes = 0;
  let fileCount = 0;
  for (const f of kept) {
    await sink(json(Rec.File, { messageId: f.messageId, index: f.index, size: f.size }));
    let got = 0;
    for await (const piece of files.read(f.path)) {
      for (let at = 0; at < piece.length; at += FILE_PIECE) {
        const part = piece.subarray(at, at + FILE_PIECE);
        await sink(record(Rec.Data, part));
        got += part.length;
      }
    }
    if (got !== f.size)
      throw new ArchiveError(
        'archive-malformed',
        `the kept file of message ${f.messageId} holds ${got} bytes, not ${f.size}`,
      );
    fileBytes += f.size;
    onProgress?.({ done: done + fileUnits(fileBytes, ++fileCount), total });
  }
  await sink(json(Rec.End, { rows: written }));
  return head;
}

/** Progress units of files: KiB, and one per file (so that empty-ish files count too). */
const fileUnits = (bytes: number, count: number) => Math.ceil(bytes / 1024) + count;

function totalOf(head: ArchiveHead): number {
  return (
    Object.values(head.rows).reduce((n: number, c) => n + (c ?? 0), 0) + fileUnits(head.files.bytes, head.files.count)
  );
}

/** Splits any chunking of the input back into records; bounded by MAX_RECORD_BYTES. */
async function* records(source: AsyncIterable<Uint8Array>): AsyncGenerator<{ type: number; body: Uint8Array }> {
  let buf: Uint8Array = new Uint8Array(0);
  for await (const chunk of source) {
    buf = buf.length === 0 ? chunk : concat(buf, chunk);
    let at = 0;
    while (buf.length - at >= 5) {
      const len = new DataView(buf.buffer, buf.byteOffset + at + 1, 4).getUint32(0);
      if (len > MAX_RECORD_BYTES)
        throw new ArchiveError('archive-malformed', `a record of ${len} bytes is larger than any archive writes`);
      if (buf.length - at < 5 + len) break;
      yield { type: buf[at], body: buf.slice(at + 5, at + 5 + len) };
      at += 5 + len;
    }
    buf = buf.subarray(at);
  }
  if (buf.length > 0) throw new ArchiveError('archive-truncated', 'the archive ends in the middle of a record');
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function parse(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new ArchiveError('archive-malformed', 'a record of the archive is not valid JSON');
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TABLES = new Set<string>(ARCHIVE_TABLES.map((t) => t.name));

/** A head by its shape: the format's name, the fields the checks below read, and the two tallies as objects. */
function isArchiveHead(v: unknown): v is ArchiveHead {
  return (
    isObject(v) &&
    v.format === ARCHIVE_FORMAT &&
    typeof v.wallet === 'string' &&
    typeof v.schema === 'number' &&
    isObject(v.rows) &&
    isObject(v.files)
  );
}

function checkHead(v: unknown, wallet: string, schema: number): ArchiveHead {
  if (!isArchiveHead(v)) throw new ArchiveError('archive-malformed', 'this is not a Relay archive');
  if (v.version !== ARCHIVE_VERSION)
    throw new ArchiveError(
      'archive-too-new',
      `archive version ${String(v.version)} is not one this app reads (${ARCHIVE_VERSION})`,
    );
  if (v.schema > schema)
    throw new ArchiveError(
      'archive-too-new',
      `the archive was made by a newer app (database version ${v.schema}, this one has ${schema}); update the app first`,
    );
  if (v.wallet.toLowerCase() !== wallet.toLowerCase())
    throw new ArchiveError(
      'archive-other-wallet',
      `this backup belongs to wallet ${v.wallet}, not to this profile's wallet ${wallet}`,
    );
  return v;
}

function checkRows(v: unknown): { table: ArchiveTable; rows: ArchiveRow[] } {
  if (!isObject(v) || typeof v.table !== 'string' || !TABLES.has(v.table) || !Array.isArray(v.rows))
    throw new ArchiveError('archive-malformed', 'a record of rows names no table the archive carries');
  for (const row of v.rows) {
    if (
      !isObject(row) ||
      !Object.values(row).every((x) => x === null || typeof x === 'string' || typeof x === 'number')
    )
      throw new ArchiveError('archive-malformed', `a row of ${v.table} is not a row`);
  }
  return { table: v.table as ArchiveTable, rows: v.rows as ArchiveRow[] };
}

/** Reads an archive into a new, empty store (see the module's head). Returns the head. */
export async function readArchive(
  source: AsyncIterable<Uint8Array>,
  target: { store: LocalStore | ArchiveDb; files: ArchiveFiles; wallet: string },
  onProgress?: OnProgress,
): Promise<ArchiveHead> {
  const db = dbOf(target.store);
  if (!(await db.holdsNoHistory()))
    throw new ArchiveError('archive-target-not-empty', 'an archive is read into a new database only');
  let head: ArchiveHead | null = null;
  let total = 0;
  let done = 0;
  let file: {
    messageId: string;
    index: number;
    size: number;
    got: number;
    hash: ReturnType<typeof createHash>;
    out: ReturnType<ArchiveFiles['create']>;
  } | null = null;
  const created: Array<ReturnType<ArchiveFiles['create']>> = [];
  const got: Partial<Record<ArchiveTable, number>> = {};
  let fileBytes = 0;
  let fileCount = 0;
  let ended = false;
  const finishFile = async () => {
    if (!file) return;
    if (file.got !== file.size)
      throw new ArchiveError(
        'archive-malformed',
        `file ${file.messageId}/${file.index} holds ${file.got} bytes, not ${file.size}`,
      );
    const sha256 = await db.attachmentSha256(file.messageId, file.index);
    if (sha256 === null || sha256 !== file.hash.digest('hex'))
      throw new ArchiveError('archive-malformed', `file ${file.messageId}/${file.index} does not match its message`);
    await file.out.end();
    await db.setAttachmentPath(file.messageId, file.index, file.out.path);
    fileBytes += file.size;
    onProgress?.({ done: done + fileUnits(fileBytes, ++fileCount), total });
    file = null;
  };
  try {
    for await (const { type, body } of records(source)) {
      if (ended) throw new ArchiveError('archive-malformed', 'the archive goes on after its end');
      if (head === null) {
        if (type !== Rec.Head) throw new ArchiveError('archive-malformed', 'this is not a Relay archive');
        head = checkHead(parse(body), target.wallet, await db.schemaVersion());
        total = totalOf(head);
        continue;
      }
      if (type === Rec.Data) {
        if (!file) throw new ArchiveError('archive-malformed', 'file data outside a file');
        file.got += body.length;
        if (file.got > file.size)
          throw new ArchiveError('archive-malformed', `file ${file.messageId}/${file.index} is longer than announced`);
        file.hash.update(body);
        await file.out.write(body);
        continue;
      }
      await finishFile();
      if (type === Rec.Rows) {
        const written = await db.writeRows(body);
        if ('code' in written) throw new ArchiveError(written.code, written.message);
        got[written.table] = (got[written.table] ?? 0) + written.count;
        done += written.count;
        onProgress?.({ done, total });
      } else if (type === Rec.File) {
        const f = parse(body);
        if (!isObject(f) || typeof f.messageId !== 'string' || !Number.isInteger(f.index) || !Number.isInteger(f.size))
          throw new ArchiveError('archive-malformed', 'a file record is malformed');
        // the id names a file on disk: a uuid-like id of a message the archive's rows hold, nothing else
        if (!/^[A-Za-z0-9_-]{1,80}$/.test(f.messageId) || !(await db.hasAttachment(f.messageId, f.index as number))) {
          throw new ArchiveError('archive-malformed', 'a file of the archive belongs to no message of it');
        }
        const out = target.files.create(f.messageId, f.index as number);
        created.push(out);
        file = {
          messageId: f.messageId,
          index: f.index as number,
          size: f.size as number,
          got: 0,
          hash: createHash('sha256'),
          out,
        };
      } else if (type === Rec.End) {
        const end = parse(body);
        const promised = isObject(end) && isObject(end.rows) ? end.rows : null;
        if (!promised || ARCHIVE_TABLES.some(({ name }) => (promised[name] ?? 0) !== (got[name] ?? 0)))
          throw new ArchiveError('archive-malformed', 'the archive holds other rows than it says');
        ended = true;
      } else {
        throw new ArchiveError('archive-malformed', `unknown record type 0x${type.toString(16)}`);
      }
    }
    if (!head || !ended)
      throw new ArchiveError('archive-truncated', 'the archive ends before its end record: it is incomplete');
    // saved on the writer's side but not in the archive (gone from its disk): download it again
    await db.refetchUnkeptFiles();
    return head;
  } catch (e) {
    await Promise.all(created.map((c) => c.abort().catch(() => undefined)));
    throw e;
  }
}
