import type { StateCreator } from 'zustand';
import type { ConversationId, ConversationSummary } from '../../shared/domain.js';
import { attending } from '../notifications/attention.js';
import { call } from '../bridge/bridge.js';
import { shownInChats } from '../people/relationships-slice.js';
import type { Store } from '../store.js';

export interface ConversationsSlice {
  conversations: ConversationSummary[];
  conversationsLoaded: boolean;
  activeConversationId: ConversationId | null;
  conversationsListed: (list: ConversationSummary[]) => void;
  conversationUpdated: (c: ConversationSummary) => void;
  /** shows the conversation, at its newest message or (a search hit) at message `at` */
  selectConversation: (id: ConversationId | null, at?: string) => Promise<void>;
  /** the open conversation came on screen (its view shown, or the window back in front): it is read now */
  conversationSeen: () => void;
  /** open (or start) a direct conversation with an address or @handle and show it */
  startConversation: (to: string) => Promise<ConversationSummary>;
  loadSession: () => Promise<void>;
}

/** the most recent conversations, whose newest page is fetched once the inbox is drawn */
const PREFETCHED_CONVERSATIONS = 3;

/** After the inbox's first frames, when the page has nothing else to do. */
function prefetchOnceIdle(work: () => Promise<void>): void {
  const run = () => void work().catch(() => undefined);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

function byRecent(a: ConversationSummary, b: ConversationSummary): number {
  const at = a.lastMessage?.at ?? a.updatedAt;
  const bt = b.lastMessage?.at ?? b.updatedAt;
  return bt.localeCompare(at);
}

/** Unread messages across the conversations Chats shows (a pending request counts in Requests, a blocked person nowhere). */
export function unreadTotal(s: Pick<Store, 'conversations' | 'relationships'>): number {
  return s.conversations.reduce((n, c) => (shownInChats(s, c) ? n + c.unread : n), 0);
}

function directRelationships(list: ConversationSummary[]) {
  return list.flatMap((c) => (c.relationship ? [{ address: c.peer, relationship: c.relationship }] : []));
}

function readCleared(list: ConversationSummary[], id: ConversationId): ConversationSummary[] {
  return list.map((x) => (x.id === id ? { ...x, unread: 0 } : x));
}

export const createConversationsSlice: StateCreator<Store, [], [], ConversationsSlice> = (set, get) => ({
  conversations: [],
  conversationsLoaded: false,
  activeConversationId: null,
  conversationsListed: (list) => {
    get().relationshipsSeen(directRelationships(list));
    set({ conversations: [...list].sort(byRecent), conversationsLoaded: true });
    // main retitles them (conversation.updated) when it learns their handles
    void get().wantHandles(list.filter((c) => c.kind === 'direct' && c.title.startsWith('0x')).map((c) => c.peer));
  },
  conversationUpdated: (c) => {
    get().relationshipsSeen(directRelationships([c]));
    const s = get();
    // The open conversation is being read while the person looks at it: keep its badge at
    // zero and tell main, which sends the `read` receipts. Unattended, it counts as unread
    // until the window comes back (conversationSeen).
    const shown = s.activeConversationId === c.id && s.view === 'chats' && attending();
    const next = shown && c.unread > 0 ? { ...c, unread: 0 } : c;
    set((st) => ({ conversations: [next, ...st.conversations.filter((x) => x.id !== c.id)].sort(byRecent) }));
    if (shown && c.unread > 0) void call('conversations.markRead', { conversationId: c.id }).catch(() => undefined);
  },
  selectConversation: async (id, at) => {
    set({ activeConversationId: id });
    get().showView('chats');
    if (!id) return;
    await (at ? get().loadMessagesAround(id, at) : get().openNewestPage(id));
    const c = get().conversations.find((x) => x.id === id);
    if (c && c.unread > 0) {
      set((s) => ({ conversations: readCleared(s.conversations, id) }));
      await call('conversations.markRead', { conversationId: id });
    }
  },
  conversationSeen: () => {
    const s = get();
    const c = s.conversations.find((x) => x.id === s.activeConversationId);
    if (!c || c.unread === 0 || s.view !== 'chats' || !attending()) return;
    set((st) => ({ conversations: readCleared(st.conversations, c.id) }));
    void call('conversations.markRead', { conversationId: c.id }).catch(() => undefined);
  },
  startConversation: async (to) => {
    const c = await call('conversations.open', { to });
    set((s) => ({ conversations: [c, ...s.conversations.filter((x) => x.id !== c.id)].sort(byRecent) }));
    await get().selectConversation(c.id);
    return c;
  },
  loadSession: async () => {
    const [list, requests, invitations] = await Promise.all([
      call('conversations.list', {}),
      call('requests.list', {}),
      call('invitations.list', {}).catch(() => null),
    ]);
    get().conversationsListed(list);
    prefetchOnceIdle(() =>
      get().prefetchNewestPages(
        get()
          .conversations.slice(0, PREFETCHED_CONVERSATIONS)
          .map((c) => c.id),
      ),
    );
    get().requestsListed(requests);
    // the relay may be unreachable at start; the next sync pass fetches them
    if (invitations) get().invitationsListed(invitations);
    void get()
      .loadPreferences()
      .catch(() => undefined);
    void call('sync.now', {})
      .then((s) => get().syncStatusChanged(s))
      .catch(() => undefined);
  },
});
