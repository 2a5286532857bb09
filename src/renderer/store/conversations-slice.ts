import type { StateCreator } from 'zustand';
import type { ConversationId, ConversationSummary } from '../../shared/domain.js';
import { call } from '../bridge.js';
import type { Store } from './store.js';

export interface ConversationsSlice {
  conversations: ConversationSummary[];
  conversationsLoaded: boolean;
  activeConversationId: ConversationId | null;
  conversationListed: (list: ConversationSummary[]) => void;
  conversationUpdated: (c: ConversationSummary) => void;
  conversationSelected: (id: ConversationId | null) => Promise<void>;
  /** open (or start) a direct conversation with an address or @handle and show it */
  conversationStarted: (to: string) => Promise<ConversationSummary>;
  sessionOpened: () => Promise<void>;
}

function byRecent(a: ConversationSummary, b: ConversationSummary): number {
  const at = a.lastMessage?.at ?? a.updatedAt;
  const bt = b.lastMessage?.at ?? b.updatedAt;
  return bt.localeCompare(at);
}

export const createConversationsSlice: StateCreator<Store, [], [], ConversationsSlice> = (set, get) => ({
  conversations: [],
  conversationsLoaded: false,
  activeConversationId: null,
  conversationListed: (list) => set({ conversations: [...list].sort(byRecent), conversationsLoaded: true }),
  conversationUpdated: (c) =>
    set((s) => {
      // The open conversation is being read: keep its badge at zero while it is on screen.
      const shown = s.activeConversationId === c.id && s.view === 'chats' && document.hasFocus();
      const next = shown && c.unread > 0 ? { ...c, unread: 0 } : c;
      if (shown && c.unread > 0) void call('conversations.markRead', { conversationId: c.id }).catch(() => undefined);
      return { conversations: [next, ...s.conversations.filter((x) => x.id !== c.id)].sort(byRecent) };
    }),
  conversationSelected: async (id) => {
    set({ activeConversationId: id, view: 'chats' });
    if (!id) return;
    await get().messagesRequested(id);
    const c = get().conversations.find((x) => x.id === id);
    if (c && c.unread > 0) {
      set((s) => ({ conversations: s.conversations.map((x) => (x.id === id ? { ...x, unread: 0 } : x)) }));
      await call('conversations.markRead', { conversationId: id });
    }
  },
  conversationStarted: async (to) => {
    const c = await call('conversations.open', { to });
    set((s) => ({ conversations: [c, ...s.conversations.filter((x) => x.id !== c.id)].sort(byRecent) }));
    await get().conversationSelected(c.id);
    return c;
  },
  sessionOpened: async () => {
    const [list, requests] = await Promise.all([call('conversations.list', {}), call('requests.list', {})]);
    get().conversationListed(list);
    get().requestsListed(requests);
    void call('sync.now', {}).then((s) => get().syncStatusChanged(s)).catch(() => undefined);
  },
});
