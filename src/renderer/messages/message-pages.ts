/** How a conversation's loaded messages change: one message in, or an older page in front. */
import type { ChatMessage } from '../../shared/domain.js';

const bySentAt = (a: ChatMessage, b: ChatMessage) => a.sentAt.localeCompare(b.sentAt);

export function upsert(list: ChatMessage[], m: ChatMessage): ChatMessage[] {
  // Updates are nearly always to recent messages: search from the end.
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i].id === m.id) {
      const next = list.slice();
      // a command's answer (an edit's, a retry's) comes without files: the ones listed stay
      next[i] = m.files || !list[i].files ? m : { ...m, files: list[i].files };
      return next;
    }
  }
  const next = [...list, m];
  if (list.length > 0 && list[list.length - 1].sentAt > m.sentAt) next.sort(bySentAt);
  return next;
}

/**
 * `page` (oldest first) goes in front. A message can already be in `list` when it arrived late
 * with an older time than the loaded ones; the page's copy (main's database) wins, and a late
 * one older still is sorted into place.
 */
export function prependOlder(list: ChatMessage[], page: ChatMessage[]): ChatMessage[] {
  if (page.length === 0) return list;
  const inPage = new Set(page.map((m) => m.id));
  const rest = list.filter((m) => !inPage.has(m.id));
  const merged = [...page, ...rest];
  if (rest.length > 0 && rest[0].sentAt < page[page.length - 1].sentAt) merged.sort(bySentAt);
  return merged;
}
