/**
 * The shapes of the client's local database: what its tables hold as rows, and the domain
 * records (messages, conversations, groups, requests) the local store hands out built from them.
 */
import type { Routed, StakeCurrency } from '../../../shared/api/common.js';
import type { GroupSummary } from '../../../shared/api/groups.js';
import type {
  ChatMessage,
  ContactRequest,
  ConversationClosed,
  ConversationId,
  ConversationSummary,
  DeliveryState,
  GroupInfo,
  MessageState,
  ReceiptState,
  Relationship,
} from '../../../shared/domain.js';
import type { AttachmentRef } from '../attachments/attachment-wire.js';
import type { ControlBody } from '../messages/message-control.js';

export type ContactState = 'known' | 'allowed' | 'requested' | 'blocked';

export interface ContactRow {
  address: string;
  handle: string | null;
  verified: boolean;
  state: ContactState;
}

/** A group as the relay summarises it, plus what this client knows as a member. */
export interface GroupRecord extends GroupSummary {
  creator: string | null;
  members: string[] | null;
  isMember: boolean;
  /** when we were removed (null: never, or we left), and by whom when we were told */
  removedAt?: string | null;
  removedBy?: string | null;
}

export interface OutboxRow {
  messageId: string;
  conversationId: ConversationId;
  payload: string;
  asRequest: boolean;
  attempts: number;
  nextAttemptMs: number;
  lastError: string | null;
}

export interface CertifiedDevice {
  publicKey: string;
  certificate: string;
  createdAt: string;
  fetchedMs: number;
}

/** A message that passed every check, ready to be stored. */
export interface IncomingMessage {
  id: string;
  envelopeId: string;
  conversationId: ConversationId;
  conversationKind: 'direct' | 'group';
  peer: string;
  author: string;
  fromMe: boolean;
  kind: 'text' | 'request';
  text: string;
  sentAt: string;
  receivedAt: string;
  routed: 'inbox' | 'request';
  via: 'group-token' | 'api-key' | null;
  /** the relay's name for the bot token that posted (bot posts only), already cleaned */
  botName: string | null;
  /** a direct message from someone we have not accepted, routed as a request */
  isRequest: boolean;
  /** an edit, delete or timer (message-control.ts) */
  control?: ControlBody | null;
  /** the sender's disappearing timer (seconds) */
  expiresIn?: number | null;
  /** an attachment message's files, to fetch */
  files?: AttachmentRef[] | null;
}

export interface AppliedIncoming {
  /** only the messages that were new (redeliveries are silently skipped) */
  messages: ChatMessage[];
  requests: ContactRequest[];
  conversations: ConversationId[];
  /** messages an edit or delete changed */
  changed: ChatMessage[];
  /** edits and deletes refused (not by the author of the message they name) */
  refused: Array<{ envelopeId: string; author: string; reason: string }>;
}

export interface OutgoingMessage {
  id: string;
  conversationId: ConversationId;
  kind: 'direct' | 'group';
  peer: string;
  author: string;
  messageKind: 'text' | 'request';
  text: string;
  sentAt: string;
  payload: string;
  asRequest: boolean;
  nowMs: number;
  /** the conversation's disappearing timer when sent */
  expiresIn?: number | null;
  /** a timer notice: the seconds set */
  timerSeconds?: number | null;
  /** an attachment message's files, already uploaded */
  files?: AttachmentRef[];
}

export interface MessageRowDb {
  seq: number;
  id: string;
  conversation_id: string;
  author: string;
  from_me: number;
  kind: 'text' | 'request';
  text: string;
  sent_at: string;
  received_at: string | null;
  state: MessageState;
  routed: Routed | null;
  stake_required: string | null;
  stake_currency: StakeCurrency | null;
  via: 'group-token' | 'api-key' | null;
  bot_name: string | null;
  error: string | null;
  error_code: string | null;
  peer_state: ReceiptState | null;
  edited_at: string | null;
  deleted_at: string | null;
  timer_seconds: number | null;
  expires_in: number | null;
  expires_at_ms: number | null;
  author_handle: string | null;
}

export interface ConversationRowDb {
  id: string;
  kind: 'direct' | 'group';
  peer: string;
  unread: number;
  updated_at: string;
  muted: number;
  timer_seconds: number;
  contact_handle: string | null;
  contact_verified: number | null;
  group_name: string | null;
  group_verified: number | null;
  group_member: number | null;
  group_removed_by: string | null;
  group_removed_at: string | null;
  last_text: string | null;
  last_kind: 'text' | 'deleted' | 'timer' | null;
  last_sent_at: string | null;
  last_from_me: number | null;
}

export interface GroupRowDb {
  id: string;
  name: string;
  is_public: number;
  verified: number;
  has_password: number;
  avatar: string | null;
  member_count: number;
  created_at: string;
  creator: string | null;
  members: string | null;
  is_member: number;
  removed_by: string | null;
  removed_at: string | null;
}

/** The most messages from a jumped-to message up to the newest (more would be a very long list to hand over). */
export const AROUND_NEWER_MAX = 20_000;

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

export interface RequestRowDb {
  address: string;
  intro: string;
  received_at: string;
  message_count: number;
  handle: string | null;
  verified: number | null;
}

export function requestFromRow(r: RequestRowDb): ContactRequest {
  return {
    address: r.address,
    handle: r.handle,
    verified: r.verified === 1,
    intro: r.intro,
    receivedAt: r.received_at,
    messageCount: r.message_count,
  };
}

export function messageFromRow(r: MessageRowDb): ChatMessage {
  return {
    id: r.id,
    conversationId: r.conversation_id as ConversationId,
    from: r.author,
    fromMe: r.from_me === 1,
    fromHandle: r.author_handle,
    kind: r.kind,
    text: r.text,
    sentAt: r.sent_at,
    receivedAt: r.received_at,
    state: r.state,
    delivery: deliveryOf(r),
    routed: r.routed,
    stakeRequired: r.stake_required,
    stakeCurrency: r.stake_currency,
    via: r.via,
    botName: r.bot_name,
    error: r.error,
    errorCode: r.error_code,
    editedAt: r.edited_at,
    deleted: r.deleted_at !== null,
    timerSeconds: r.timer_seconds,
    expiresIn: r.expires_in,
    expiresAt: r.expires_at_ms === null ? null : new Date(r.expires_at_ms).toISOString(),
  };
}

export function deliveryOf(r: MessageRowDb): DeliveryState | null {
  if (r.from_me !== 1) return null;
  return r.peer_state ?? (r.state === 'sent' ? 'sent' : 'sending');
}

/** Why a group's conversation takes no more messages: we were removed (by whom, when known) or left. */
export function groupClosed(
  isMember: boolean,
  removedAt: string | null,
  removedBy: string | null,
): ConversationClosed | null {
  if (isMember) return null;
  return removedAt === null ? { reason: 'left' } : { reason: 'removed', by: removedBy };
}

export function conversationFromRow(r: ConversationRowDb, relationship: Relationship | null): ConversationSummary {
  const title =
    r.kind === 'group' ? (r.group_name ?? 'Group') : r.contact_handle ? `@${r.contact_handle}` : shortAddress(r.peer);
  return {
    id: r.id as ConversationId,
    kind: r.kind,
    peer: r.peer,
    title,
    verified: r.kind === 'group' ? r.group_verified === 1 : r.contact_verified === 1,
    lastMessage:
      r.last_text === null
        ? null
        : { text: r.last_text, at: r.last_sent_at!, fromMe: r.last_from_me === 1, kind: r.last_kind ?? 'text' },
    unread: r.unread,
    updatedAt: r.updated_at,
    muted: r.muted === 1,
    timerSeconds: r.timer_seconds,
    relationship,
    // a group we hold no record of (a pass brought its first message) is one we are in
    closed:
      r.kind === 'group' && r.group_member !== null
        ? groupClosed(r.group_member === 1, r.group_removed_at, r.group_removed_by)
        : null,
  };
}

export function groupFromRow(r: GroupRowDb): GroupRecord {
  return {
    id: r.id,
    name: r.name,
    isPublic: r.is_public === 1,
    verified: r.verified === 1,
    hasPassword: r.has_password === 1,
    avatar: r.avatar,
    memberCount: r.member_count,
    createdAt: r.created_at,
    creator: r.creator,
    members: r.members === null ? null : (JSON.parse(r.members) as string[]),
    isMember: r.is_member === 1,
    removedAt: r.removed_at,
    removedBy: r.removed_by,
  };
}

export function groupInfoOf(g: GroupRecord, me: string): GroupInfo {
  const info: GroupInfo = {
    id: g.id,
    name: g.name,
    isPublic: g.isPublic,
    verified: g.verified,
    hasPassword: g.hasPassword,
    avatar: g.avatar,
    memberCount: g.memberCount,
    createdAt: g.createdAt,
    isMember: g.isMember,
    isCreator: g.creator === me,
  };
  if (g.isMember && g.creator !== null) info.creatorAddress = g.creator;
  if (g.isMember && g.members !== null) info.members = g.members;
  // a group we were in: neither a member nor a stranger to it (no Join, no members we can no longer see)
  if (!g.isMember && g.members !== null) info.closed = groupClosed(false, g.removedAt ?? null, g.removedBy ?? null);
  return info;
}

export function outboxFromRow(r: Record<string, unknown>): OutboxRow {
  return {
    messageId: r.message_id as string,
    conversationId: r.conversation_id as ConversationId,
    payload: r.payload as string,
    asRequest: r.as_request === 1,
    attempts: r.attempts as number,
    nextAttemptMs: r.next_attempt_ms as number,
    lastError: (r.last_error as string | null) ?? null,
  };
}
