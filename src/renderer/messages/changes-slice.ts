import type { StateCreator } from 'zustand';
import type { ConversationId } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

/** Edits and deletes of one's own messages and the disappearing-message timer (the messages themselves are the messages slice's). */
export interface ChangesSlice {
  editMessage: (conversationId: ConversationId, messageId: string, text: string) => Promise<void>;
  deleteMessage: (conversationId: ConversationId, messageId: string) => Promise<void>;
  setTimer: (conversationId: ConversationId, seconds: number) => Promise<void>;
}

export const createChangesSlice: StateCreator<Store, [], [], ChangesSlice> = (_set, get) => ({
  editMessage: async (conversationId, messageId, text) => {
    get().messageUpdated(await call('messages.edit', { conversationId, messageId, text }));
  },
  deleteMessage: async (conversationId, messageId) => {
    const m = await call('messages.delete', { conversationId, messageId });
    // a message withdrawn before it left is gone, not a "message deleted" placeholder
    if (m.removed) get().messagesRemoved(conversationId, [messageId]);
    else get().messageUpdated(m);
  },
  setTimer: async (conversationId, seconds) => {
    get().conversationUpdated(await call('conversations.setTimer', { conversationId, seconds }));
  },
});
