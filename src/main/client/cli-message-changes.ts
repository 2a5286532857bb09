/**
 * The command-line client's `edit`, `delete` and `timer`, and how `sync` shows an edited or
 * deleted message and a timer notice. Each command applies the change here, then sends the
 * outbox at once (what cannot go now stays queued; `outbox` sends it later).
 */
import type { ChatMessage, ConversationId } from '../../shared/domain.js';
import { TIMER_CHOICES, timerLabel } from '../../shared/disappearing.js';
import { CONVERSATION_ID_PATTERN } from '../../shared/identity-patterns.js';
import type { Messenger } from './messenger.js';
import { UsageError, printJson } from './cli-support.js';

const CONVERSATION_ID = new RegExp(CONVERSATION_ID_PATTERN);

/** `direct:0x…` / `group:…` as given; `0x…` or `@handle` is the direct conversation with them. */
async function conversationOf(m: Messenger, arg: string): Promise<ConversationId> {
  const id = arg.toLowerCase();
  if (CONVERSATION_ID.test(id)) return id as ConversationId;
  return `direct:${await m.resolveRecipient(arg)}`;
}

/** Sends what the change queued; `sent: false` when it waits in the outbox (offline). */
async function sendNow(m: Messenger): Promise<boolean> {
  const outcomes = await m.flushOutbox(true);
  return outcomes.every((o) => o.state === 'sent');
}

export async function runMessageChange(m: Messenger, command: 'edit' | 'delete' | 'timer', args: string[]): Promise<void> {
  if (command === 'timer') {
    const choice = TIMER_CHOICES.find((c) => c.short === args[1]);
    if (args.length !== 2 || !choice) throw new UsageError(`usage: timer <conversation> <${TIMER_CHOICES.map((c) => c.short).join('|')}>`);
    const c = m.changes.setTimer({ conversationId: await conversationOf(m, args[0]), seconds: choice.seconds });
    printJson({ conversationId: c.id, timerSeconds: c.timerSeconds, sent: await sendNow(m) });
    return;
  }
  if (command === 'edit' && args.length < 3) throw new UsageError('usage: edit <conversation> <message-id> <text>');
  if (command === 'delete' && args.length !== 2) throw new UsageError('usage: delete <conversation> <message-id>');
  const conversationId = await conversationOf(m, args[0]);
  const messageId = args[1].toLowerCase();
  const changed = command === 'edit'
    ? m.changes.edit({ conversationId, messageId, text: args.slice(2).join(' ') })
    : m.changes.delete({ conversationId, messageId });
  printJson({ ...changeLine(changed), sent: await sendNow(m) });
}

/** What `sync` prints for a message an edit or delete changed. */
export function changeLine(msg: ChatMessage): Record<string, unknown> {
  return msg.deleted
    ? { id: msg.id, conversationId: msg.conversationId, from: msg.from, deleted: true }
    : { id: msg.id, conversationId: msg.conversationId, from: msg.from, edited: true, text: msg.text, editedAt: msg.editedAt };
}

/** The words `sync` prints for a message: a timer notice says what it set. */
export function shownText(msg: ChatMessage): string {
  if (msg.timerSeconds !== null) return msg.timerSeconds === 0 ? 'turned disappearing messages off' : `set disappearing messages to ${timerLabel(msg.timerSeconds)}`;
  return msg.deleted ? '(message deleted)' : msg.text;
}
