import type { StateCreator } from 'zustand';
import type { ChatMessage, ConversationId } from '../../shared/domain.js';
import { call, on } from '../bridge/bridge.js';
import { prependOlder, upsert } from './message-pages.js';
import type { Store } from '../store.js';

/**
 * Messages per `messages.list` call: opening a conversation lists only its newest page (a
 * screenful and then some), older pages come as the reader scrolls up.
 */
export const MESSAGE_PAGE = 100;
/** how long a request dialog waits for the relay's answer before saying the request is queued */
const REQUEST_SETTLE_MS = 10_000;

/** What is known of a conversation's history beyond the messages loaded. */
export interface HistoryState {
  /**
   * The oldest message a listed page returned: the cursor for the next older page. Not simply
   * the first loaded message, which may have arrived late with an older time than its
   * neighbours; paging from it would skip the messages in between.
   */
  oldestListedId: string | null;
  /** the last page came back full, so older messages may remain */
  hasOlder: boolean;
  loadingOlder: boolean;
}

export interface MessagesSlice {
  messagesByConversation: Partial<Record<ConversationId, ChatMessage[]>>;
  historyByConversation: Partial<Record<ConversationId, HistoryState>>;
  /** the newest page, replacing what was loaded */
  messagesListed: (id: ConversationId, list: ChatMessage[]) => void;
  /** an older page, listed before `before` */
  olderMessagesListed: (id: ConversationId, before: string, page: ChatMessage[]) => void;
  messageReceived: (m: ChatMessage) => void;
  messageUpdated: (m: ChatMessage) => void;
  /** main removed these (their timer ran out, or they were withdrawn before they left) */
  messagesRemoved: (conversationId: ConversationId, ids: string[]) => void;
  loadMessages: (id: ConversationId) => Promise<void>;
  /**
   * The newest page of each of these not loaded yet, one after another: a conversation opened
   * then draws at once from it (live events keep a loaded list current; the open lists it afresh).
   */
  prefetchNewestPages: (ids: ConversationId[]) => Promise<void>;
  /** Opening: the newest page, unless a prefetch listed it and it has not been opened since (live events kept it current). */
  openNewestPage: (id: ConversationId) => Promise<void>;
  /** the list opened at one message: a page older than it, it, and everything newer */
  loadMessagesAround: (id: ConversationId, messageId: string) => Promise<void>;
  /** the page before the oldest loaded; does nothing while one is on its way or when none remain */
  loadOlderMessages: (id: ConversationId) => Promise<void>;
  sendMessage: (id: ConversationId, text: string, asRequest?: boolean) => Promise<void>;
  retryMessage: (messageId: string) => Promise<void>;
  /** a contact request with an intro, from the directory; resolves with the relay's answer (or still `sending` when offline) */
  sendContactRequest: (to: string, intro: string) => Promise<ChatMessage>;
}

/** conversations a prefetch listed that have not been opened since */
const prefetched = new Set<ConversationId>();

function setLoadingOlder(s: Store, id: ConversationId, loadingOlder: boolean): Partial<Store> {
  const h = s.historyByConversation[id];
  return h ? { historyByConversation: { ...s.historyByConversation, [id]: { ...h, loadingOlder } } } : {};
}

export const createMessagesSlice: StateCreator<Store, [], [], MessagesSlice> = (set, get) => ({
  messagesByConversation: {},
  historyByConversation: {},
  messagesListed: (id, list) =>
    set((s) => ({
      messagesByConversation: { ...s.messagesByConversation, [id]: list },
      historyByConversation: {
        ...s.historyByConversation,
        [id]: { oldestListedId: list[0]?.id ?? null, hasOlder: list.length >= MESSAGE_PAGE, loadingOlder: false },
      },
    })),
  olderMessagesListed: (id, before, page) =>
    set((s) => {
      const list = s.messagesByConversation[id];
      const h = s.historyByConversation[id];
      // The conversation was listed afresh meanwhile: this page belongs to a list that is gone.
      if (!list || h?.oldestListedId !== before) return {};
      return {
        messagesByConversation: { ...s.messagesByConversation, [id]: prependOlder(list, page) },
        historyByConversation: {
          ...s.historyByConversation,
          [id]: { oldestListedId: page[0]?.id ?? before, hasOlder: page.length >= MESSAGE_PAGE, loadingOlder: false },
        },
      };
    }),
  messageReceived: (m) =>
    set((s) => {
      const list = s.messagesByConversation[m.conversationId];
      if (!list) return {};
      return { messagesByConversation: { ...s.messagesByConversation, [m.conversationId]: upsert(list, m) } };
    }),
  messageUpdated: (m) => get().messageReceived(m),
  messagesRemoved: (conversationId, ids) =>
    set((s) => {
      const list = s.messagesByConversation[conversationId];
      if (!list) return {};
      const gone = new Set(ids);
      return {
        messagesByConversation: { ...s.messagesByConversation, [conversationId]: list.filter((m) => !gone.has(m.id)) },
      };
    }),
  loadMessages: async (id) => {
    const list = await call('messages.list', { conversationId: id, limit: MESSAGE_PAGE });
    get().messagesListed(id, list);
  },
  prefetchNewestPages: async (ids) => {
    for (const id of ids) {
      if (get().messagesByConversation[id]) continue;
      await get().loadMessages(id);
      prefetched.add(id);
    }
  },
  openNewestPage: async (id) => {
    const fresh = prefetched.delete(id) && get().messagesByConversation[id] !== undefined;
    if (!fresh) await get().loadMessages(id);
  },
  loadMessagesAround: async (id, messageId) => {
    const list = await call('messages.list', { conversationId: id, around: messageId, limit: MESSAGE_PAGE });
    get().messagesListed(id, list);
  },
  loadOlderMessages: async (id) => {
    const h = get().historyByConversation[id];
    if (!h?.hasOlder || h.loadingOlder || !h.oldestListedId) return;
    const before = h.oldestListedId;
    set((s) => setLoadingOlder(s, id, true));
    try {
      const page = await call('messages.list', { conversationId: id, before, limit: MESSAGE_PAGE });
      get().olderMessagesListed(id, before, page);
    } catch (e) {
      set((s) => setLoadingOlder(s, id, false));
      throw e;
    }
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
