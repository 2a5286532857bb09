import type { StateCreator } from 'zustand';
import type { ChatMessage, ConversationId } from '../../shared/domain.js';
import { call, on } from '../bridge.js';
import type { Store } from './store.js';

/** Enough for any conversation the bench or a person makes; the list is virtualised. */
const PAGE = 20000;
/** how long a request dialog waits for the relay's answer before saying the request is queued */
const REQUEST_SETTLE_MS = 10_000;

export interface MessagesSlice {
  messagesByConversation: Partial<Record<ConversationId, ChatMessage[]>>;
  messagesListed: (id: ConversationId, list: ChatMessage[]) => void;
  messageReceived: (m: ChatMessage) => void;
  messageUpdated: (m: ChatMessage) => void;
  loadMessages: (id: ConversationId) => Promise<void>;
  sendMessage: (id: ConversationId, text: string, asRequest?: boolean) => Promise<void>;
  retryMessage: (messageId: string) => Promise<void>;
  /** a contact request with an intro, from the directory; resolves with the relay's answer (or still `sending` when offline) */
  sendContactRequest: (to: string, intro: string) => Promise<ChatMessage>;
}

function upsert(list: ChatMessage[], m: ChatMessage): ChatMessage[] {
  // Updates are nearly always to recent messages: search from the end.
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i].id === m.id) {
      const next = list.slice();
      next[i] = m;
      return next;
    }
  }
  const next = [...list, m];
  if (list.length > 0 && list[list.length - 1].sentAt > m.sentAt) next.sort((a, b) => a.sentAt.localeCompare(b.sentAt));
  return next;
}

export const createMessagesSlice: StateCreator<Store, [], [], MessagesSlice> = (set, get) => ({
  messagesByConversation: {},
  messagesListed: (id, list) => set((s) => ({ messagesByConversation: { ...s.messagesByConversation, [id]: list } })),
  messageReceived: (m) =>
    set((s) => {
      const list = s.messagesByConversation[m.conversationId];
      if (!list) return {};
      return { messagesByConversation: { ...s.messagesByConversation, [m.conversationId]: upsert(list, m) } };
    }),
  messageUpdated: (m) => get().messageReceived(m),
  loadMessages: async (id) => {
    const list = await call('messages.list', { conversationId: id, limit: PAGE });
    get().messagesListed(id, list);
  },
  sendMessage: async (id, text, asRequest) => {
    const m = await call('messages.send', { conversationId: id, text, ...(asRequest ? { asRequest } : {}) });
    get().messageReceived(m);
  },
  sendContactRequest: async (to, intro) => {
    const c = await call('conversations.open', { to });
    get().conversationUpdated(c);
    // The send returns while the message is still in the outbox; the relay's answer (queued,
    // stake-gated, blocked) arrives as an update. Listen before sending so none is missed.
    const settledBy = new Map<string, ChatMessage>();
    let wake = () => {};
    const off = on('message.updated', (u) => {
      if (u.state === 'sending') return;
      settledBy.set(u.id, u);
      wake();
    });
    try {
      const m = await call('messages.send', { conversationId: c.id, text: intro, asRequest: true });
      get().messageReceived(m);
      const deadline = Date.now() + REQUEST_SETTLE_MS;
      while (m.state === 'sending' && !settledBy.has(m.id) && Date.now() < deadline) {
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 250);
        });
      }
      return settledBy.get(m.id) ?? m;
    } finally {
      off();
    }
  },
  retryMessage: async (messageId) => {
    const m = await call('messages.retry', { messageId });
    get().messageReceived(m);
  },
});
