/**
 * A minimal history archive (format `relay-history-messages-v1`): the conversations shown and
 * their messages, one JSON line per message. It stands in until the full archive of backups
 * (contacts, groups, settings, files) is plugged into HistoryTransfer; the transfer does not
 * care which format it carries, it names it in the message and the receiver refuses one it
 * cannot read.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ChatMessage, ConversationId } from '../../shared/domain.js';
import type { HistoryImported } from '../../shared/history.js';
import type { HistorySink, HistorySource } from './history-transfer.js';
import type { IncomingMessage, LocalStore } from './local-store.js';

export const MESSAGES_ARCHIVE_FORMAT = 'relay-history-messages-v1';
const PAGE = 500;

interface Line {
  conversationId: ConversationId;
  conversationKind: 'direct' | 'group';
  peer: string;
  message: Pick<ChatMessage, 'id' | 'from' | 'fromMe' | 'kind' | 'text' | 'sentAt' | 'receivedAt' | 'via' | 'botName'>;
}

export function messagesArchiveSource(store: LocalStore): HistorySource {
  return {
    format: MESSAGES_ARCHIVE_FORMAT,
    async write(sink: Writable, onProgress) {
      const conversations = store.listConversations();
      for (const [i, c] of conversations.entries()) {
        for (let before: string | null = null; ; ) {
          const page = store.listMessages(c.id, before, PAGE);
          // newest page first; the receiver's order comes from sentAt, not from the file
          for (const m of page) {
            if (m.deleted || m.timerSeconds !== null) continue;
            const line: Line = { conversationId: c.id, conversationKind: c.kind, peer: c.peer, message: { id: m.id, from: m.from, fromMe: m.fromMe, kind: m.kind, text: m.text, sentAt: m.sentAt, receivedAt: m.receivedAt, via: m.via, botName: m.botName } };
            if (!sink.write(`${JSON.stringify(line)}\n`)) await once(sink, 'drain');
          }
          if (page.length < PAGE) break;
          before = page[0].id;
        }
        onProgress?.(i + 1, conversations.length);
      }
      sink.end();
    },
  };
}

export function messagesArchiveSink(store: LocalStore, now: () => number): HistorySink {
  return {
    formats: [MESSAGES_ARCHIVE_FORMAT],
    async read(source: Readable, onProgress): Promise<HistoryImported> {
      const conversations = new Set<string>();
      let messages = 0;
      let batch: IncomingMessage[] = [];
      const flush = () => {
        messages += store.applyIncoming(batch, [], now()).messages.length;
        batch = [];
        onProgress?.(messages, 0);
      };
      for await (const text of createInterface({ input: source, crlfDelay: Infinity })) {
        if (text === '') continue;
        const l = JSON.parse(text) as Line;
        conversations.add(l.conversationId);
        const m = l.message;
        batch.push({
          id: m.id, envelopeId: `history:${m.id}`, conversationId: l.conversationId, conversationKind: l.conversationKind, peer: l.peer,
          author: m.from, fromMe: m.fromMe, kind: m.kind, text: m.text, sentAt: m.sentAt, receivedAt: m.receivedAt ?? m.sentAt,
          routed: 'inbox', via: m.via, botName: m.botName, isRequest: false,
        });
        if (batch.length >= PAGE) flush();
      }
      flush();
      return { conversations: conversations.size, messages };
    },
  };
}
