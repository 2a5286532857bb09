/** Events main pushes to the renderer, with what each carries. */
import type {
  AppStatus,
  ConversationId,
  TypingNotice,
  ChatMessage,
  ContactRequest,
  ConversationSummary,
  KnownHandle,
  RejectedMessage,
  Relationship,
  RelayStatus,
  SyncStatus,
} from '../domain.js';
import type { DeviceNotice } from '../trust.js';
import type { BackupProgress } from '../backup/backup.js';
import type { HistoryOutcome, HistoryProgress } from '../backup/history.js';
import type { FileProgress } from '../attachments.js';

/** Events main pushes to the renderer. */
export interface Events {
  'message.new': ChatMessage;
  'message.updated': ChatMessage;
  /** messages whose disappearing timer ran out: gone from this device */
  'message.removed': { conversationId: ConversationId; ids: string[] };
  /** a received envelope failed a check and was dropped (one event each; nothing is kept) */
  'message.rejected': RejectedMessage;
  'conversation.updated': ConversationSummary;
  'request.new': ContactRequest;
  /** main learned the handle of an address it showed without one */
  'contact.updated': KnownHandle;
  /** who someone is to me changed (blocked, unblocked, accepted, declined…): every screen follows it */
  'contact.relationship': { address: string; relationship: Relationship };
  'sync.status': SyncStatus;
  'relay.status': RelayStatus;
  'app.status': AppStatus;
  /** the peer is typing, or stopped */
  typing: TypingNotice;
  /** a shell notification was clicked: open this conversation (or the requests, with none) */
  'notification.clicked': { conversationId: ConversationId | null };
  /** a wallet's set of certified devices changed (someone's, or our own) */
  'devices.changed': DeviceNotice;
  /** how far a backup's export or restore got */
  'backup.progress': BackupProgress;
  /** a history transfer to or from another device of ours moved on */
  'history.progress': HistoryProgress;
  /** history from another device of ours was imported, or refused */
  'history.outcome': HistoryOutcome;
  /** a file's upload or download moved on (each whole percent) */
  'file.progress': FileProgress;
}
export type EventName = keyof Events;
export const eventNames: readonly EventName[] = [
  'message.new',
  'message.updated',
  'message.removed',
  'message.rejected',
  'conversation.updated',
  'request.new',
  'contact.updated',
  'contact.relationship',
  'sync.status',
  'relay.status',
  'app.status',
  'typing',
  'notification.clicked',
  'devices.changed',
  'backup.progress',
  'history.progress',
  'history.outcome',
  'file.progress',
];
