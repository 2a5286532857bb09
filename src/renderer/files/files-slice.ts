import type { StateCreator } from 'zustand';
import {
  MAX_FILE_BYTES,
  MAX_FILES,
  PREVIEW_MAX_CHARS,
  PREVIEWS_MAX_CHARS_PER_MESSAGE,
  type FileProgress,
} from '../../shared/attachments.js';
import type { ConversationId } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import { downloadBlob, readReceivedFile, stageFile } from './file-transfer.js';
import { makePreview } from './image-preview.js';
import type { Store } from '../store.js';

/** A file chosen in the composer, not sent yet. */
export interface DraftFile {
  key: string;
  file: File;
  /** the downscaled image that goes with it; null for other files */
  preview: string | null;
}

/**
 * Files on their way out: handed to main, then uploaded; the message exists once every file is
 * up. A failure keeps what main staged, so Retry goes on from there.
 */
export interface OutgoingSend {
  sendId: string;
  conversationId: ConversationId;
  text: string;
  files: Array<DraftFile & { uploadId: string | null }>;
  state: 'sending' | 'failed';
  error: string | null;
}

/** Files addDraftFiles left out: too large, empty, or how many went over the per-message count. */
export interface DraftRefusals {
  tooLarge: Array<{ name: string; size: number }>;
  empty: string[];
  leftOut: number;
}

export interface FilesSlice {
  draftFiles: Partial<Record<ConversationId, DraftFile[]>>;
  outgoingSends: OutgoingSend[];
  /** transfers in flight: `up/<sendId>/<index>` (into main and on to the relay), `down/<messageId>/<index>` */
  fileProgress: Record<string, { done: number; total: number }>;
  /** Adds picked, dropped or pasted files to the composer; what it leaves out is returned, for the screen to say why in the reader's language. */
  addDraftFiles: (conversationId: ConversationId, files: File[]) => DraftRefusals;
  removeDraftFile: (conversationId: ConversationId, key: string) => void;
  /** Sends the composer's files with `text` as their caption. */
  sendDraftFiles: (conversationId: ConversationId, text: string) => void;
  retrySend: (sendId: string) => void;
  discardSend: (sendId: string) => void;
  fileProgressed: (p: FileProgress) => void;
  /** Save: Electron's dialog, or in web mode the browser's download of the bytes main decrypts. */
  saveFile: (messageId: string, index: number, name: string, mime: string) => Promise<void>;
  /** Downloads the files not fetched yet (after the relay could not be reached). */
  fetchFiles: () => Promise<void>;
}

let draftSeq = 0;

export const createFilesSlice: StateCreator<Store, [], [], FilesSlice> = (set, get) => {
  const patchSend = (sendId: string, patch: Partial<OutgoingSend>) =>
    set((s) => ({ outgoingSends: s.outgoingSends.map((o) => (o.sendId === sendId ? { ...o, ...patch } : o)) }));
  const progress = (key: string, done: number, total: number) =>
    set((s) => ({ fileProgress: { ...s.fileProgress, [key]: { done, total } } }));
  const clearProgress = (prefix: string) =>
    set((s) => ({
      fileProgress: Object.fromEntries(Object.entries(s.fileProgress).filter(([k]) => !k.startsWith(prefix))),
    }));

  /** Hands over what main does not have yet, then asks it to upload and send. */
  const run = async (sendId: string) => {
    const o = get().outgoingSends.find((x) => x.sendId === sendId);
    if (!o) return;
    patchSend(sendId, { state: 'sending', error: null });
    try {
      const files = [...o.files];
      for (let i = 0; i < files.length; i++) {
        if (files[i].uploadId) continue;
        // the hand-over is the first half of the bar, the relay's upload the second
        const uploadId = await stageFile(files[i].file, (done) =>
          progress(`up/${sendId}/${i}`, done / 2, files[i].file.size),
        );
        files[i] = { ...files[i], uploadId };
        patchSend(sendId, { files: [...files] });
      }
      const message = await call('attachments.send', {
        sendId,
        conversationId: o.conversationId,
        text: o.text,
        files: files.map((f) => ({ uploadId: f.uploadId!, ...(f.preview ? { preview: f.preview } : {}) })),
      });
      set((s) => ({ outgoingSends: s.outgoingSends.filter((x) => x.sendId !== sendId) }));
      clearProgress(`up/${sendId}/`);
      get().messageReceived(message);
    } catch (e) {
      patchSend(sendId, { state: 'failed', error: (e as Error).message });
      clearProgress(`up/${sendId}/`);
    }
  };

  return {
    draftFiles: {},
    outgoingSends: [],
    fileProgress: {},
    addDraftFiles: (conversationId, files) => {
      const have = get().draftFiles[conversationId]?.length ?? 0;
      const refusals: DraftRefusals = {
        tooLarge: files.filter((f) => f.size > MAX_FILE_BYTES).map((f) => ({ name: f.name, size: f.size })),
        empty: files.filter((f) => f.size === 0).map((f) => f.name),
        leftOut: 0,
      };
      let take = files.filter((f) => f.size > 0 && f.size <= MAX_FILE_BYTES);
      if (have + take.length > MAX_FILES) {
        refusals.leftOut = have + take.length - MAX_FILES;
        take = take.slice(0, Math.max(0, MAX_FILES - have));
      }
      if (take.length === 0) return refusals;
      const added: DraftFile[] = take.map((file) => ({ key: `f${++draftSeq}`, file, preview: null }));
      set((s) => ({
        draftFiles: { ...s.draftFiles, [conversationId]: [...(s.draftFiles[conversationId] ?? []), ...added] },
      }));
      // previews share the message's budget: each image gets an equal part of it
      const budget = Math.min(PREVIEW_MAX_CHARS, Math.floor(PREVIEWS_MAX_CHARS_PER_MESSAGE / MAX_FILES));
      void (async () => {
        for (const d of added) {
          const preview = await makePreview(d.file, budget);
          if (preview)
            set((s) => ({
              draftFiles: {
                ...s.draftFiles,
                [conversationId]: (s.draftFiles[conversationId] ?? []).map((x) =>
                  x.key === d.key ? { ...x, preview } : x,
                ),
              },
            }));
        }
      })();
      return refusals;
    },
    removeDraftFile: (conversationId, key) =>
      set((s) => ({
        draftFiles: {
          ...s.draftFiles,
          [conversationId]: (s.draftFiles[conversationId] ?? []).filter((f) => f.key !== key),
        },
      })),
    sendDraftFiles: (conversationId, text) => {
      const files = get().draftFiles[conversationId] ?? [];
      if (files.length === 0) return;
      const sendId = crypto.randomUUID();
      set((s) => ({
        draftFiles: { ...s.draftFiles, [conversationId]: [] },
        outgoingSends: [
          ...s.outgoingSends,
          {
            sendId,
            conversationId,
            text,
            files: files.map((f) => ({ ...f, uploadId: null })),
            state: 'sending',
            error: null,
          },
        ],
      }));
      void run(sendId);
    },
    retrySend: (sendId) => void run(sendId),
    discardSend: (sendId) => {
      const o = get().outgoingSends.find((x) => x.sendId === sendId);
      set((s) => ({ outgoingSends: s.outgoingSends.filter((x) => x.sendId !== sendId) }));
      const uploadIds = (o?.files ?? []).flatMap((f) => (f.uploadId ? [f.uploadId] : []));
      if (uploadIds.length) void call('attachments.discard', { uploadIds }).catch(() => undefined);
    },
    fileProgressed: (p) => {
      if (p.direction === 'down') {
        if (p.done >= p.total) clearProgress(`down/${p.id}/${p.index}`);
        else progress(`down/${p.id}/${p.index}`, p.done, p.total);
        return;
      }
      // the relay's upload is the second half of the bar
      if (get().outgoingSends.some((o) => o.sendId === p.id && o.state === 'sending'))
        progress(`up/${p.id}/${p.index}`, p.total / 2 + p.done / 2, p.total);
    },
    saveFile: async (messageId, index, name, mime) => {
      const r = await call('attachments.save', { messageId, index });
      if (r.handled) return;
      const key = `down/${messageId}/${index}`;
      try {
        const blob = await readReceivedFile(messageId, index, mime, (done, total) => progress(key, done, total));
        downloadBlob(blob, name);
      } finally {
        clearProgress(key);
      }
    },
    fetchFiles: async () => {
      await call('attachments.fetch', {});
    },
  };
};
