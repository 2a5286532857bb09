import type { StateCreator } from 'zustand';
import type { ConversationId } from '../../shared/domain.js';
import type { MessageSearchHit } from '../../shared/message-search.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

/** Hits the app asks for: more than a person reads, few enough to come at once. */
export const SEARCH_HITS = 50;

export interface MessageSearchState {
  query: string;
  /** null: across every conversation (the chats list); otherwise within that one */
  conversationId: ConversationId | null;
  hits: MessageSearchHit[];
  loading: boolean;
  error: string | null;
}

/** The message a search hit opened its conversation at: scrolled into view and marked. */
export interface FocusedMessage {
  conversationId: ConversationId;
  messageId: string;
  /** a new jump to the same message scrolls to it again */
  jump: number;
}

export interface SearchSlice {
  /** the search box of the chats list */
  chatSearch: MessageSearchState;
  /** the search of the open conversation's header */
  conversationSearch: MessageSearchState;
  focusedMessage: FocusedMessage | null;
  /** searches the local messages; with a conversation id, the conversation search, otherwise the chats list's */
  searchMessages: (query: string, conversationId?: ConversationId) => Promise<void>;
  clearConversationSearch: () => void;
  /** opens the hit's conversation at the hit */
  openSearchHit: (hit: Pick<MessageSearchHit, 'conversationId' | 'messageId'>) => Promise<void>;
  /** the message list scrolled to the focused message */
  focusSpent: (jump: number) => void;
}

const idle = (conversationId: ConversationId | null): MessageSearchState => ({
  query: '',
  conversationId,
  hits: [],
  loading: false,
  error: null,
});
const latest = { chat: 0, conversation: 0 };
let jumps = 0;

export const createSearchSlice: StateCreator<Store, [], [], SearchSlice> = (set, get) => ({
  chatSearch: idle(null),
  conversationSearch: idle(null),
  focusedMessage: null,
  searchMessages: async (query, conversationId) => {
    const key = conversationId ? 'conversationSearch' : 'chatSearch';
    const ticket = ++latest[conversationId ? 'conversation' : 'chat'];
    const current = () => ticket === latest[conversationId ? 'conversation' : 'chat'];
    if (!query.trim()) {
      set({ [key]: idle(conversationId ?? null) });
      return;
    }
    set((s) => ({ [key]: { ...s[key], query, conversationId: conversationId ?? null, loading: true, error: null } }));
    try {
      const hits = await call('messages.search', {
        query,
        limit: SEARCH_HITS,
        ...(conversationId ? { conversationId } : {}),
      });
      // Answers can overtake each other while the person types: keep only the newest.
      if (current())
        set({ [key]: { query, conversationId: conversationId ?? null, hits, loading: false, error: null } });
    } catch (e) {
      if (current()) set((s) => ({ [key]: { ...s[key], loading: false, error: (e as Error).message } }));
    }
  },
  clearConversationSearch: () => {
    latest.conversation++;
    set({ conversationSearch: idle(null) });
  },
  openSearchHit: async (hit) => {
    set({ focusedMessage: { conversationId: hit.conversationId, messageId: hit.messageId, jump: ++jumps } });
    try {
      await get().selectConversation(hit.conversationId, hit.messageId);
    } catch (e) {
      // the message went meanwhile (deleted, expired): the conversation still opens, at its newest
      set({ focusedMessage: null });
      await get().loadMessages(hit.conversationId);
      throw e;
    }
  },
  focusSpent: (jump) => set((s) => (s.focusedMessage?.jump === jump ? { focusedMessage: null } : {})),
});
