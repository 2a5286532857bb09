// "live": what changes while the app is open and is not a stored record: who is typing now, the preferences as last set, mutes as last toggled.
import type { StateCreator } from 'zustand';
import type { ConversationId, Preferences, TypingNotice } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

/** The composer asks main at most this often; main itself sends `on` at most every 3 s. */
const TYPING_CALL_MS = 1000;

export interface LiveSlice {
  /** who is typing in each conversation now (main ends it: after 6 s without a renewal, or on their message) */
  typingByConversation: Partial<Record<ConversationId, string>>;
  preferences: Preferences | null;
  typingReceived: (t: TypingNotice) => void;
  /** what the composer holds changed: `on` while there is text, `off` once it is cleared */
  composerChanged: (id: ConversationId, text: string) => void;
  composerSent: (id: ConversationId) => void;
  loadPreferences: () => Promise<void>;
  setPreferences: (p: Partial<Preferences>) => Promise<void>;
  muteConversation: (id: ConversationId, muted: boolean) => Promise<void>;
}

/** when this window last asked main to say `on`, per conversation */
const typingOnAt = new Map<ConversationId, number>();

export const createLiveSlice: StateCreator<Store, [], [], LiveSlice> = (set, get) => {
  const clearTyping = (id: ConversationId) => {
    set((s) => {
      if (!(id in s.typingByConversation)) return {};
      const next = { ...s.typingByConversation };
      delete next[id];
      return { typingByConversation: next };
    });
  };
  const sendTyping = (id: ConversationId, state: 'on' | 'off') => {
    // a notice is worth something only now: one that fails is not worth a toast
    void call('conversations.typing', { conversationId: id, state }).catch(() => undefined);
  };
  return {
    typingByConversation: {},
    preferences: null,
    typingReceived: (t) => {
      if (t.state === 'off') return clearTyping(t.conversationId);
      set((s) => ({ typingByConversation: { ...s.typingByConversation, [t.conversationId]: t.from } }));
    },
    composerChanged: (id, text) => {
      if (!id.startsWith('direct:')) return;
      const last = typingOnAt.get(id);
      if (text.trim()) {
        if (last !== undefined && Date.now() - last < TYPING_CALL_MS) return;
        typingOnAt.set(id, Date.now());
        sendTyping(id, 'on');
      } else if (last !== undefined) {
        typingOnAt.delete(id);
        sendTyping(id, 'off');
      }
    },
    composerSent: (id) => {
      if (!typingOnAt.delete(id)) return;
      sendTyping(id, 'off');
    },
    loadPreferences: async () => {
      set({ preferences: await call('preferences.get', {}) });
    },
    setPreferences: async (p) => {
      set({ preferences: await call('preferences.set', p) });
    },
    muteConversation: async (id, muted) => {
      get().conversationUpdated(await call('conversations.mute', { conversationId: id, muted }));
    },
  };
};
