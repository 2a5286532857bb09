import type { StateCreator } from 'zustand';
import type { ContactRequest, ConversationId, ConversationSummary } from '../../shared/domain.js';
import { attending } from '../attention.js';
import { call } from '../bridge.js';
import type { Store } from './store.js';

export interface ConversationsSlice {
  conversations: ConversationSummary[];
  /** handles the directory told us for addresses the client knows only by address */
  resolvedHandles: Record<string, { handle: string; verified: boolean }>;
  handlesResolved: (found: Record<string, { handle: string; verified: boolean }>) => void;
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

function byRecent(a: ConversationSummary, b: ConversationSummary): number {
  const at = a.lastMessage?.at ?? a.updatedAt;
  const bt = b.lastMessage?.at ?? b.updatedAt;
  return bt.localeCompare(at);
}

/** Unread messages across conversations, leaving out people whose request is still pending (they count in Requests). */
export function unreadTotal(s: Pick<Store, 'conversations' | 'requests'>): number {
  return s.conversations.reduce((n, c) => (s.requests.some((r) => `direct:${r.address.toLowerCase()}` === c.id) ? n : n + c.unread), 0);
}

function readCleared(list: ConversationSummary[], id: ConversationId): ConversationSummary[] {
  return list.map((x) => (x.id === id ? { ...x, unread: 0 } : x));
}

/** A direct conversation main knows only by address: its title is the address. */
function unnamed(c: ConversationSummary): boolean {
  return c.kind === 'direct' && c.title.startsWith('0x');
}

/** A direct conversation known only by address gets the handle the directory has for it. */
function named(c: ConversationSummary, known: ConversationsSlice['resolvedHandles']): ConversationSummary {
  if (!unnamed(c)) return c;
  const k = known[c.peer.toLowerCase()];
  return k ? { ...c, title: `@${k.handle}`, verified: c.verified || k.verified } : c;
}

/** A request from someone main knows only by address gets the handle the directory has for them. */
export function namedRequest(r: ContactRequest, known: ConversationsSlice['resolvedHandles']): ContactRequest {
  const k = r.handle ? undefined : known[r.address.toLowerCase()];
  return k ? { ...r, handle: k.handle, verified: r.verified || k.verified } : r;
}

const pending = new Set<string>();

/** Asks the directory (by full address) for handles of addresses shown without one. */
export async function resolveHandles(addresses: string[], get: () => Store): Promise<void> {
  const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))].filter((a) => !get().resolvedHandles[a] && !pending.has(a));
  if (!wanted.length) return;
  wanted.forEach((a) => pending.add(a));
  const found: ConversationsSlice['resolvedHandles'] = {};
  await Promise.all(
    wanted.map(async (a) => {
      try {
        const hit = (await call('directory.search', { q: a })).find((h) => h.address.toLowerCase() === a);
        if (hit) found[a] = { handle: hit.handle, verified: hit.verified };
      } catch {
        // offline: try again next time the list changes
        pending.delete(a);
      }
    }),
  );
  if (Object.keys(found).length) get().handlesResolved(found);
}

export const createConversationsSlice: StateCreator<Store, [], [], ConversationsSlice> = (set, get) => ({
  conversations: [],
  resolvedHandles: {},
  handlesResolved: (found) =>
    set((s) => {
      const resolvedHandles = { ...s.resolvedHandles, ...found };
      return {
        resolvedHandles,
        conversations: s.conversations.map((c) => named(c, resolvedHandles)),
        requests: s.requests.map((r) => namedRequest(r, resolvedHandles)),
      };
    }),
  conversationsLoaded: false,
  activeConversationId: null,
  conversationsListed: (list) => {
    set((s) => ({ conversations: list.map((c) => named(c, s.resolvedHandles)).sort(byRecent), conversationsLoaded: true }));
    void resolveHandles(list.filter(unnamed).map((c) => c.peer), get);
  },
  conversationUpdated: (c) => {
    const s = get();
    // The open conversation is being read while the person looks at it: keep its badge at
    // zero and tell main, which sends the `read` receipts. Unattended, it counts as unread
    // until the window comes back (conversationSeen).
    const shown = s.activeConversationId === c.id && s.view === 'chats' && attending();
    const base = named(c, s.resolvedHandles);
    const next = shown && base.unread > 0 ? { ...base, unread: 0 } : base;
    set((st) => ({ conversations: [next, ...st.conversations.filter((x) => x.id !== c.id)].sort(byRecent) }));
    if (shown && c.unread > 0) void call('conversations.markRead', { conversationId: c.id }).catch(() => undefined);
    if (base === c && unnamed(c)) void resolveHandles([c.peer], get);
  },
  selectConversation: async (id, at) => {
    set({ activeConversationId: id, view: 'chats' });
    if (!id) return;
    await (at ? get().loadMessagesAround(id, at) : get().loadMessages(id));
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
    set((s) => ({ conversations: [named(c, s.resolvedHandles), ...s.conversations.filter((x) => x.id !== c.id)].sort(byRecent) }));
    await get().selectConversation(c.id);
    return c;
  },
  loadSession: async () => {
    const [list, requests, invitations] = await Promise.all([call('conversations.list', {}), call('requests.list', {}), call('invitations.list', {}).catch(() => null)]);
    get().conversationsListed(list);
    get().requestsListed(requests);
    // the relay may be unreachable at start; the next sync pass fetches them
    if (invitations) get().invitationsListed(invitations);
    void get().loadPreferences().catch(() => undefined);
    void call('sync.now', {}).then((s) => get().syncStatusChanged(s)).catch(() => undefined);
  },
});
