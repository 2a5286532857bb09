import type { StateCreator } from 'zustand';
import type { ChatMessage, ConversationId } from '../../shared/domain.js';
import { call } from '../bridge.js';
import type { Store } from './store.js';

/** Enough for any conversation the bench or a person makes; the list is virtualised. */
const PAGE = 20000;

export interface MessagesSlice {
  messagesByConversation: Partial<Record<ConversationId, ChatMessage[]>>;
  messagesListed: (id: ConversationId, list: ChatMessage[]) => void;
  messageReceived: (m: ChatMessage) => void;
  messageUpdated: (m: ChatMessage) => void;
  messagesRequested: (id: ConversationId) => Promise<void>;
  composerSubmitted: (id: ConversationId, text: string, asRequest?: boolean) => Promise<void>;
  retryClicked: (messageId: string) => Promise<void>;
  /** a contact request with an intro, from the directory */
  requestSent: (to: string, intro: string) => Promise<ChatMessage>;
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
  messagesRequested: async (id) => {
    const list = await call('messages.list', { conversationId: id, limit: PAGE });
    get().messagesListed(id, list);
  },
  composerSubmitted: async (id, text, asRequest) => {
    const m = await call('messages.send', { conversationId: id, text, ...(asRequest ? { asRequest } : {}) });
    get().messageReceived(m);
  },
  requestSent: async (to, intro) => {
    const c = await call('conversations.open', { to });
    get().conversationUpdated(c);
    const m = await call('messages.send', { conversationId: c.id, text: intro, asRequest: true });
    get().messageReceived(m);
    return m;
  },
  retryClicked: async (messageId) => {
    const m = await call('messages.retry', { messageId });
    get().messageReceived(m);
  },
});
