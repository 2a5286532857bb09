/**
 * The command-line client's `edit`, `delete` and `timer`, and how `sync` shows an edited or
 * deleted message and a timer notice. Each command applies the change here, then sends the
 * outbox at once (what cannot go now stays queued; `outbox` sends it later).
 */
import type { ChatMessage, ConversationId } from '../../../shared/domain.js';
import { TIMER_CHOICES, TIMER_MAX_SECONDS, TIMER_MIN_SECONDS, timerLabel } from '../../../shared/disappearing.js';
import type { Messenger } from '../core/messenger.js';
import { address, recipient } from './cli-args.js';
import { groupId } from './cli-groups.js';
import { UsageError, printJson } from './cli-support.js';

/** `direct:0x…` / `group:…` as the CLI prints them; `0x…` or `@handle` is the direct conversation with them. */
async function conversationOf(m: Messenger, arg: string): Promise<ConversationId> {
  if (arg.startsWith('direct:')) return `direct:${address(arg.slice(7))}`;
  if (arg.startsWith('group:')) return `group:${groupId(arg.slice(6))}`;
  // opened (created if new), so that a timer can be set before anything was said
  return (await m.conversations.open({ to: recipient(arg) })).id;
}

/** Sends what the change queued; `sent: false` when it waits in the outbox (offline). */
async function sendNow(m: Messenger): Promise<boolean> {
  const outcomes = await m.messages.flushOutbox(true);
  return outcomes.every((o) => o.state === 'sent');
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const TIMER_USAGE = `usage: timer <conversation> <${TIMER_CHOICES.map((c) => c.short).join('|')}> (or any N s|m|h|d|w from 30s to 4w)`;

/** `off`, one of the app's choices, or any whole number of s/m/h/d/w the wire format allows (30 s – 4 weeks). */
export function timerSeconds(arg: string | undefined): number {
  if (arg === 'off') return 0;
  const m = /^(\d{1,7})([smhdw])$/.exec(arg ?? '');
  const seconds = m ? Number(m[1]) * UNIT_SECONDS[m[2]] : NaN;
  if (!(seconds >= TIMER_MIN_SECONDS && seconds <= TIMER_MAX_SECONDS)) throw new UsageError(TIMER_USAGE);
  return seconds;
}

export async function runMessageChange(
  m: Messenger,
  command: 'edit' | 'delete' | 'timer',
  args: string[],
): Promise<void> {
  if (command === 'timer') {
    if (args.length !== 2) throw new UsageError(TIMER_USAGE);
    const seconds = timerSeconds(args[1]);
    const c = m.changes.setTimer({ conversationId: await conversationOf(m, args[0]), seconds });
    printJson({ conversationId: c.id, timerSeconds: c.timerSeconds, sent: await sendNow(m) });
    return;
  }
  if (command === 'edit' && args.length < 3) throw new UsageError('usage: edit <conversation> <message-id> <text>');
  if (command === 'delete' && args.length !== 2) throw new UsageError('usage: delete <conversation> <message-id>');
  const conversationId = await conversationOf(m, args[0]);
  const messageId = args[1].toLowerCase();
  const changed =
    command === 'edit'
      ? m.changes.edit({ conversationId, messageId, text: args.slice(2).join(' ') })
      : m.changes.delete({ conversationId, messageId });
  // a message withdrawn before it left was never sent, and its withdrawal sends nothing
  if ('removed' in changed) printJson({ ...changeLine(changed), removed: true, sent: false });
  else printJson({ ...changeLine(changed), sent: await sendNow(m) });
}

/** What `sync` prints for a message an edit or delete changed. */
export function changeLine(msg: ChatMessage): Record<string, unknown> {
  return msg.deleted
    ? { id: msg.id, conversationId: msg.conversationId, from: msg.from, deleted: true }
    : {
        id: msg.id,
        conversationId: msg.conversationId,
        from: msg.from,
        edited: true,
        text: msg.text,
        editedAt: msg.editedAt,
      };
}

/** The words `sync` prints for a message: a timer notice says what it set. */
export function shownText(msg: ChatMessage): string {
  if (msg.timerSeconds !== null)
    return msg.timerSeconds === 0
      ? 'turned disappearing messages off'
      : `set disappearing messages to ${timerLabel(msg.timerSeconds)}`;
  return msg.deleted ? '(message deleted)' : msg.text;
}
