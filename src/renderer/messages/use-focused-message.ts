import { useEffect, useState } from 'react';
import type { ConversationId } from '../../shared/domain.js';
import { useStore } from '../store.js';

/**
 * The message list's side of a jump to a search hit: once the hit's row is among `keys` (the
 * page around it may still be on its way), `jumpTo` scrolls there, once per jump; the
 * returned id is the row to mark for as long as this list is open. The focus is then spent,
 * so reopening the conversation later opens it at its newest message again.
 */
export function useFocusedMessage(
  conversationId: ConversationId,
  keys: readonly string[],
  jumpTo: (index: number) => void,
): string | null {
  const focused = useStore((s) => (s.focusedMessage?.conversationId === conversationId ? s.focusedMessage : null));
  const focusSpent = useStore((s) => s.focusSpent);
  const [marked, setMarked] = useState<string | null>(null);
  useEffect(() => {
    if (!focused) return;
    const i = keys.indexOf(focused.messageId);
    if (i < 0) return;
    jumpTo(i);
    setMarked(focused.messageId);
    focusSpent(focused.jump);
    // jumpTo is a new function each render: harmless, as a spent focus returns at once
  }, [focused, keys, jumpTo, focusSpent]);
  return marked;
}
