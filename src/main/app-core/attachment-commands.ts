/**
 * The app's side of files: the bytes a person picks, drops or pastes cross the
 * doorway in chunks (the same way in Electron and in web mode, where they travel over the
 * socket), are staged in `<profile>/outgoing/` and, on send, encrypted and uploaded by the
 * client's Attachments; a failed upload keeps them staged, so Retry sends the same files again.
 * Received files are fetched by the client on its own; Save writes one where the person says
 * (Electron's save dialog), or in web mode hands its decrypted bytes to the browser.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, ConversationId } from '../../shared/domain.js';
import {
  FILE_CHUNK_BYTES,
  MAX_FILE_BYTES,
  MAX_FILES,
  PREVIEWS_MAX_CHARS_PER_MESSAGE,
  type FileProgress,
} from '../../shared/attachments.js';
import type { EventName, Events } from '../../shared/ipc.js';
import { AppError } from '../../shared/plain-errors.js';
import { cleanName } from '../client/attachments/attachment-wire.js';
import type { Attachments } from '../client/attachments/attachments.js';
import { byPercent } from '../client/attachments/file-progress.js';
import type { Messenger } from '../client/core/messenger.js';
import type { Handlers } from '../commands/handler-types.js';

/** files staged and not yet sent, across every conversation: enough for a few drafts, not a disk filler */
const MAX_STAGED = 3 * MAX_FILES;
/** web mode's Save reads a file in chunks: the decrypted bytes stay in memory this long after the last one */
const READ_KEEP_MS = 30_000;

interface Staged {
  dir: string;
  path: string;
  size: number;
  written: number;
}

export type AttachmentHandlers = Pick<Handlers, `attachments.${string}` & keyof Handlers>;

export interface AttachmentCommandsDeps {
  messenger: () => Messenger;
  profileDir: string;
  /** Electron's save dialog: the path to write, or null when the person cancelled; absent in web mode */
  chooseSavePath?: (suggestedName: string) => Promise<string | null>;
  emitProgress: (p: FileProgress) => void;
}

export class AttachmentCommands {
  private readonly dir: string;
  private readonly staged = new Map<string, Staged>();
  private reading: { key: string; bytes: Promise<Buffer>; timer: NodeJS.Timeout } | null = null;

  constructor(private readonly d: AttachmentCommandsDeps) {
    this.dir = join(d.profileDir, 'outgoing');
    // what an earlier run staged and never sent: its drafts are gone with its window
    rmSync(this.dir, { recursive: true, force: true });
  }

  handlers(): AttachmentHandlers {
    return {
      'attachments.stage': async ({ name, size }) => this.stage(name, size),
      'attachments.append': ({ uploadId, offset, data }) => this.append(uploadId, offset, data),
      'attachments.send': (a) => this.send(a.sendId, a.conversationId as ConversationId, a.text, a.files),
      'attachments.discard': async ({ uploadIds }) => this.discard(uploadIds),
      'attachments.fetch': () => this.d.messenger().attachments.fetchPending(),
      'attachments.save': ({ messageId, index }) => this.save(messageId, index),
      'attachments.read': ({ messageId, index, offset }) => this.read(messageId, index, offset),
    };
  }

  private stage(name: string, size: number): { uploadId: string } {
    if (this.staged.size >= MAX_STAGED)
      throw new AppError(
        'too-many-files',
        `At most ${MAX_STAGED} files can wait to be sent; send or remove some first.`,
      );
    if (size > MAX_FILE_BYTES)
      throw new AppError('file-too-large', `“${cleanName(name)}” is larger than 25 MiB, the most one file can be.`);
    const uploadId = randomUUID();
    const dir = join(this.dir, uploadId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // the client names the file on the wire after the path's last part
    this.staged.set(uploadId, { dir, path: join(dir, cleanName(name)), size, written: 0 });
    return { uploadId };
  }

  private async append(uploadId: string, offset: number, data: string): Promise<{ received: number }> {
    const s = this.stagedFile(uploadId);
    const bytes = Buffer.from(data, 'base64');
    if (offset !== s.written)
      throw new AppError('bad-arguments', `Expected the bytes from ${s.written}, got them from ${offset}.`);
    if (bytes.length > FILE_CHUNK_BYTES)
      throw new AppError('bad-arguments', `A chunk holds at most ${FILE_CHUNK_BYTES} bytes.`);
    if (s.written + bytes.length > s.size)
      throw new AppError('bad-arguments', 'More bytes than the file was said to have.');
    const fh = await open(s.path, s.written === 0 ? 'w' : 'a', 0o600);
    try {
      await fh.write(bytes);
    } finally {
      await fh.close();
    }
    s.written += bytes.length;
    return { received: s.written };
  }

  /** Uploads the staged files and sends them as one message; on failure they stay staged for Retry. */
  private async send(
    sendId: string,
    conversationId: ConversationId,
    text: string,
    files: Array<{ uploadId: string; preview?: string }>,
  ): Promise<ChatMessage> {
    const staged = files.map((f) => this.stagedFile(f.uploadId));
    const incomplete = staged.find((s) => s.written !== s.size);
    if (incomplete) throw new AppError('bad-arguments', 'A file has not been handed over whole yet.');
    if (files.reduce((n, f) => n + (f.preview?.length ?? 0), 0) > PREVIEWS_MAX_CHARS_PER_MESSAGE)
      throw new AppError('bad-arguments', 'The image previews are too large for one message.');
    const progress = staged.map((s, index) =>
      byPercent((done, total) => this.d.emitProgress({ direction: 'up', id: sendId, index, done, total })),
    );
    const m = this.d.messenger();
    const { message } = await m.messages.sendFiles(
      conversationId,
      staged.map((s) => s.path),
      text,
      (i, done, total) => progress[i](done, total),
      files.map((f) => f.preview),
    );
    await this.discard(files.map((f) => f.uploadId));
    return withFiles(m.attachments, [message])[0];
  }

  private async discard(uploadIds: string[]): Promise<void> {
    for (const id of uploadIds) {
      const s = this.staged.get(id);
      if (!s) continue;
      this.staged.delete(id);
      await rm(s.dir, { recursive: true, force: true });
    }
  }

  private async save(messageId: string, index: number): Promise<{ handled: boolean; saved: boolean }> {
    if (!this.d.chooseSavePath) return { handled: false, saved: false };
    const file = this.d
      .messenger()
      .attachments.filesOf(messageId)
      .find((f) => f.index === index);
    if (!file) throw new AppError('not-found', 'That file is not in this message.');
    const dest = await this.d.chooseSavePath(file.name);
    if (dest === null) return { handled: true, saved: false };
    await this.d.messenger().attachments.exportFile(messageId, index, dest);
    return { handled: true, saved: true };
  }

  /** A chunk of a kept file's plaintext; the file is decrypted once and kept while its chunks are read. */
  private async read(messageId: string, index: number, offset: number): Promise<{ data: string; size: number }> {
    const key = `${messageId}/${index}`;
    if (this.reading?.key !== key) {
      this.forgetRead();
      const bytes = this.d.messenger().attachments.readFile(messageId, index);
      this.reading = { key, bytes, timer: setTimeout(() => this.forgetRead(), READ_KEEP_MS).unref() };
      bytes.catch(() => this.forgetRead());
    } else this.reading.timer.refresh();
    const bytes = await this.reading!.bytes;
    if (offset > bytes.length) throw new AppError('bad-arguments', 'Past the end of the file.');
    const end = Math.min(bytes.length, offset + FILE_CHUNK_BYTES);
    if (end === bytes.length) this.forgetRead();
    return { data: bytes.subarray(offset, end).toString('base64'), size: bytes.length };
  }

  private forgetRead(): void {
    if (this.reading) clearTimeout(this.reading.timer);
    this.reading = null;
  }

  private stagedFile(uploadId: string): Staged {
    const s = this.staged.get(uploadId);
    if (!s) throw new AppError('not-found', 'That file is no longer waiting to be sent; pick it again.');
    return s;
  }
}

/** Messages as the app shows them: each with its files, when it has any. */
export function withFiles(attachments: Attachments, messages: ChatMessage[]): ChatMessage[] {
  const files = attachments.viewsOf(messages.map((m) => m.id));
  return files.size === 0 ? messages : messages.map((m) => (files.has(m.id) ? { ...m, files: files.get(m.id) } : m));
}

/** An event on its way to the app: a message in it carries its files. */
export function eventWithFiles<E extends EventName>(attachments: Attachments, event: E, payload: Events[E]): Events[E] {
  if (event !== 'message.new' && event !== 'message.updated') return payload;
  return withFiles(attachments, [payload as ChatMessage])[0] as Events[E];
}
