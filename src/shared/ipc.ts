/**
 * The one contract between the renderer and main: every command with its argument schema
 * (checked at the doorway) and result type, and every event main pushes. Electron's preload
 * and the web-mode WebSocket bridge both expose exactly these keys.
 */
import { Type, type Static, type TSchema } from 'typebox';
import type {
  ApiKeyInfo,
  AppStatus,
  ConversationId,
  Preferences,
  TypingNotice,
  BotToken,
  ChatMessage,
  DeletedMessage,
  ContactRequest,
  ConversationSummary,
  DeviceInfo,
  DirectoryHit,
  GroupAddResult,
  GroupInfo,
  GroupInvitation,
  InboxPolicy,
  KnownHandle,
  RejectedMessage,
  RelayStatus,
  StakeInfo,
  StakeSettings,
  SyncStatus,
} from './domain.js';
import type { ContactTrust, DeviceNotice, SafetyNumberInfo } from './trust.js';
import {
  BACKUP_NAME_PATTERN,
  BACKUP_PASSPHRASE_MIN,
  BACKUP_PIECE_BYTES,
  type BackupProgress,
  type BackupSummary,
} from './backup.js';
import type { HistoryOutcome, HistoryProgress, HistorySent } from './history.js';
import { MESSAGE_MAX_CHARS } from './domain.js';
import { TIMER_MAX_SECONDS, TIMER_MIN_SECONDS } from './disappearing.js';
import { ADDRESS_PATTERN, CONVERSATION_ID_PATTERN } from './identity-patterns.js';
import {
  CAPTION_MAX_CHARS,
  FILE_CHUNK_BYTES,
  MAX_FILES,
  MAX_FILE_BYTES,
  PREVIEW_MAX_CHARS,
  PREVIEW_PATTERN,
  type FileProgress,
} from './attachments.js';
import { SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX_CHARS, type MessageSearchHit } from './message-search.js';
import type { commandNames } from './bridge-methods.js';

const Address = Type.String({ pattern: ADDRESS_PATTERN });
const Recipient = Type.String({ minLength: 2, maxLength: 64, description: '0x address or @handle' });
const ConvId = Type.String({ pattern: CONVERSATION_ID_PATTERN });
const Uuid = Type.String({ pattern: '^[0-9a-f-]{36}$' });
const Passphrase = Type.String({ minLength: 0, maxLength: 1024 });
const NoArgs = Type.Object({}, { additionalProperties: false });
const BackupName = Type.String({ pattern: BACKUP_NAME_PATTERN });

/** `cmd<Result>()(argsSchema)`: the schema checks arguments at the doorway; Result types the answer. */
function cmd<R>() {
  return <A extends TSchema>(args: A) => ({ args, result: undefined as unknown as R });
}

export const commands = {
  'app.status': cmd<AppStatus>()(NoArgs),

  // onboarding: the vault creates or imports the wallet; the mnemonic crosses once, to be shown
  'wallet.create': cmd<{ address: string; mnemonic: string }>()(
    Type.Object({ passphrase: Passphrase }, { additionalProperties: false }),
  ),
  'wallet.importMnemonic': cmd<{ address: string }>()(
    Type.Object(
      { mnemonic: Type.String({ maxLength: 1024 }), passphrase: Passphrase },
      { additionalProperties: false },
    ),
  ),
  'wallet.importPrivateKey': cmd<{ address: string }>()(
    Type.Object(
      { privateKey: Type.String({ maxLength: 132 }), passphrase: Passphrase },
      { additionalProperties: false },
    ),
  ),
  'wallet.unlock': cmd<AppStatus>()(Type.Object({ passphrase: Passphrase }, { additionalProperties: false })),
  'relay.connect': cmd<AppStatus>()(
    Type.Object(
      {
        mode: Type.Union([Type.Literal('local'), Type.Literal('lan'), Type.Literal('url')]),
        url: Type.Optional(Type.String({ maxLength: 2048 })),
        fingerprint: Type.Optional(Type.String({ maxLength: 128 })),
      },
      { additionalProperties: false },
    ),
  ),
  'profile.claimHandle': cmd<AppStatus>()(
    Type.Object({ handle: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  ),

  // conversations and messages
  'conversations.list': cmd<ConversationSummary[]>()(NoArgs),
  'conversations.open': cmd<ConversationSummary>()(Type.Object({ to: Recipient }, { additionalProperties: false })),
  'conversations.markRead': cmd<void>()(Type.Object({ conversationId: ConvId }, { additionalProperties: false })),
  // around: open at that message (a search hit): `limit` older ones, it, and the newer ones up to the newest
  'messages.list': cmd<ChatMessage[]>()(
    Type.Object(
      {
        conversationId: ConvId,
        before: Type.Optional(Type.String({ maxLength: 64 })),
        around: Type.Optional(Type.String({ maxLength: 64 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20000 })),
      },
      { additionalProperties: false },
    ),
  ),
  // local full-text search, newest first; a query without words finds nothing
  'messages.search': cmd<MessageSearchHit[]>()(
    Type.Object(
      {
        query: Type.String({ maxLength: SEARCH_QUERY_MAX_CHARS }),
        conversationId: Type.Optional(ConvId),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_MAX_LIMIT })),
      },
      { additionalProperties: false },
    ),
  ),
  'messages.send': cmd<ChatMessage>()(
    Type.Object(
      {
        conversationId: ConvId,
        text: Type.String({ minLength: 1, maxLength: MESSAGE_MAX_CHARS }),
        asRequest: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
  ),
  'messages.retry': cmd<ChatMessage>()(Type.Object({ messageId: Uuid }, { additionalProperties: false })),
  /** one's own message only; the others' devices and one's own other devices apply it too */
  'messages.edit': cmd<ChatMessage>()(
    Type.Object(
      { conversationId: ConvId, messageId: Uuid, text: Type.String({ minLength: 1, maxLength: MESSAGE_MAX_CHARS }) },
      { additionalProperties: false },
    ),
  ),
  'messages.delete': cmd<DeletedMessage>()(
    Type.Object({ conversationId: ConvId, messageId: Uuid }, { additionalProperties: false }),
  ),
  /** disappearing messages: 0 = off, else 30 s to 4 weeks; a notice tells the other side */
  'conversations.setTimer': cmd<ConversationSummary>()(
    Type.Object(
      {
        conversationId: ConvId,
        seconds: Type.Union([
          Type.Literal(0),
          Type.Integer({ minimum: TIMER_MIN_SECONDS, maximum: TIMER_MAX_SECONDS }),
        ]),
      },
      { additionalProperties: false },
    ),
  ),

  // files (issue 12): a file's bytes cross in chunks of FILE_CHUNK_BYTES (base64) into a staged
  // upload; `attachments.send` uploads the staged files and sends them (progress: `file.progress`
  // with the send's id); a failed send keeps them staged for a retry
  'attachments.stage': cmd<{ uploadId: string }>()(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 255 }),
        size: Type.Integer({ minimum: 1, maximum: MAX_FILE_BYTES }),
      },
      { additionalProperties: false },
    ),
  ),
  'attachments.append': cmd<{ received: number }>()(
    Type.Object(
      {
        uploadId: Uuid,
        offset: Type.Integer({ minimum: 0 }),
        data: Type.String({ minLength: 1, maxLength: Math.ceil(FILE_CHUNK_BYTES / 3) * 4 }),
      },
      { additionalProperties: false },
    ),
  ),
  'attachments.send': cmd<ChatMessage>()(
    Type.Object(
      {
        sendId: Uuid,
        conversationId: ConvId,
        text: Type.String({ maxLength: CAPTION_MAX_CHARS }),
        files: Type.Array(
          Type.Object(
            {
              uploadId: Uuid,
              preview: Type.Optional(Type.String({ pattern: PREVIEW_PATTERN, maxLength: PREVIEW_MAX_CHARS })),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: MAX_FILES },
        ),
      },
      { additionalProperties: false },
    ),
  ),
  'attachments.discard': cmd<void>()(
    Type.Object({ uploadIds: Type.Array(Uuid, { maxItems: 100 }) }, { additionalProperties: false }),
  ),
  /** downloads the received files still pending now (they are fetched on their own after each sync) */
  'attachments.fetch': cmd<{ saved: number; refused: number }>()(NoArgs),
  /** Electron: a save dialog, then the file written there; web mode answers `handled: false` and the page reads the bytes */
  'attachments.save': cmd<{ handled: boolean; saved: boolean }>()(
    Type.Object(
      { messageId: Uuid, index: Type.Integer({ minimum: 0, maximum: MAX_FILES - 1 }) },
      { additionalProperties: false },
    ),
  ),
  /** a received file's plaintext from `offset`, at most FILE_CHUNK_BYTES (base64), and its whole size */
  'attachments.read': cmd<{ data: string; size: number }>()(
    Type.Object(
      {
        messageId: Uuid,
        index: Type.Integer({ minimum: 0, maximum: MAX_FILES - 1 }),
        offset: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
  ),

  // contact requests and contacts
  'requests.list': cmd<ContactRequest[]>()(NoArgs),
  'requests.accept': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),
  'requests.decline': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),
  // "spam": a staked request's stake goes to us (a transaction), the sender is blocked and forgotten
  'requests.spam': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),

  // stakes (docs/protocol.md §13 Stakes): requests.accept releases a staked request's stake
  'stakes.settings': cmd<StakeSettings>()(NoArgs),
  'stakes.setRpcUrl': cmd<StakeSettings>()(
    Type.Object(
      {
        chainId: Type.Integer({ minimum: 1 }),
        url: Type.Union([Type.String({ pattern: '^https?://', maxLength: 2048 }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  ),
  'stakes.list': cmd<StakeInfo[]>()(
    Type.Object(
      { role: Type.Optional(Type.Union([Type.Literal('sent'), Type.Literal('received')])) },
      { additionalProperties: false },
    ),
  ),
  /** deposits the stake a gate asked for this message and sends it again with it */
  'stakes.pay': cmd<{ message: ChatMessage; stake: StakeInfo | null }>()(
    Type.Object({ messageId: Uuid }, { additionalProperties: false }),
  ),
  /** takes a sent stake back: accepted (release signature) or past its deadline */
  'stakes.refund': cmd<StakeInfo>()(
    Type.Object({ id: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }) }, { additionalProperties: false }),
  ),
  'contacts.block': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),
  'contacts.unblock': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),
  /** The handles main knows for these addresses; the rest it looks up (paced) and announces with `contact.updated`. */
  'contacts.handles': cmd<KnownHandle[]>()(
    Type.Object({ addresses: Type.Array(Address, { maxItems: 500 }) }, { additionalProperties: false }),
  ),
  // safety numbers: compare them, mark the contact verified (false: unmark, or send anyway after a change)
  'contacts.safetyNumber': cmd<SafetyNumberInfo>()(Type.Object({ address: Address }, { additionalProperties: false })),
  'contacts.verify': cmd<SafetyNumberInfo>()(
    Type.Object({ address: Address, verified: Type.Boolean() }, { additionalProperties: false }),
  ),
  /** the mark and the device notices (newest first); for one's own address, Settings' notices */
  'contacts.trust': cmd<ContactTrust>()(Type.Object({ address: Address }, { additionalProperties: false })),

  // directory
  'directory.search': cmd<DirectoryHit[]>()(
    Type.Object({ q: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  ),

  // groups
  'groups.listPublic': cmd<GroupInfo[]>()(NoArgs),
  'groups.listMine': cmd<GroupInfo[]>()(NoArgs),
  'groups.get': cmd<GroupInfo>()(Type.Object({ groupId: Uuid }, { additionalProperties: false })),
  'groups.create': cmd<GroupInfo>()(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 80 }),
        isPublic: Type.Boolean(),
        password: Type.Optional(Type.String({ maxLength: 128 })),
        avatar: Type.Optional(Type.String({ maxLength: 400_000 })),
      },
      { additionalProperties: false },
    ),
  ),
  'groups.join': cmd<GroupInfo>()(
    Type.Object(
      { groupId: Uuid, password: Type.Optional(Type.String({ maxLength: 128 })) },
      { additionalProperties: false },
    ),
  ),
  'groups.leave': cmd<void>()(Type.Object({ groupId: Uuid }, { additionalProperties: false })),
  // `added: 'invited'` when the other wallet must accept first (docs/protocol.md §12 Groups)
  'groups.addMember': cmd<GroupAddResult>()(
    Type.Object({ groupId: Uuid, member: Recipient }, { additionalProperties: false }),
  ),
  'groups.removeMember': cmd<GroupInfo>()(
    Type.Object({ groupId: Uuid, address: Address }, { additionalProperties: false }),
  ),
  'groups.listTokens': cmd<BotToken[]>()(Type.Object({ groupId: Uuid }, { additionalProperties: false })),
  'groups.mintToken': cmd<{ token: string; botToken: BotToken }>()(
    Type.Object({ groupId: Uuid, name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  ),
  'groups.revokeToken': cmd<void>()(Type.Object({ groupId: Uuid, tokenId: Uuid }, { additionalProperties: false })),
  // creator only: admins may add and remove members (not the creator nor other admins), edit the group, manage bot tokens
  'groups.addAdmin': cmd<GroupInfo>()(
    Type.Object({ groupId: Uuid, address: Address }, { additionalProperties: false }),
  ),
  'groups.removeAdmin': cmd<GroupInfo>()(
    Type.Object({ groupId: Uuid, address: Address }, { additionalProperties: false }),
  ),

  // group invitations: nothing of the group reaches me until I accept
  'invitations.list': cmd<GroupInvitation[]>()(NoArgs),
  'invitations.accept': cmd<GroupInfo>()(Type.Object({ groupId: Uuid }, { additionalProperties: false })),
  // blockInviter: decline and block whoever invited me, so they cannot invite me again
  'invitations.decline': cmd<void>()(
    Type.Object({ groupId: Uuid, blockInviter: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  ),

  // settings
  'devices.list': cmd<DeviceInfo[]>()(NoArgs),
  'devices.revoke': cmd<void>()(
    Type.Object({ publicKey: Type.String({ pattern: '^[0-9a-f]{64}$' }) }, { additionalProperties: false }),
  ),
  /** seals this device's history to another certified device of the wallet and sends it over the relay */
  'history.send': cmd<HistorySent>()(
    Type.Object({ deviceKey: Type.String({ pattern: '^[0-9a-f]{64}$' }) }, { additionalProperties: false }),
  ),
  /** "Not now" to the offer to send this device's history to `deviceKey`: remembered, so the offer stays gone after a restart */
  'history.decline': cmd<void>()(
    Type.Object({ deviceKey: Type.String({ pattern: '^[0-9a-f]{64}$' }) }, { additionalProperties: false }),
  ),
  'apiKeys.list': cmd<ApiKeyInfo[]>()(NoArgs),
  'apiKeys.mint': cmd<{ apiKey: string; key: ApiKeyInfo }>()(
    Type.Object({ label: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  ),
  'apiKeys.revoke': cmd<void>()(Type.Object({ id: Uuid }, { additionalProperties: false })),
  'policy.get': cmd<InboxPolicy>()(NoArgs),
  'policy.set': cmd<InboxPolicy>()(
    Type.Object(
      {
        unknownSenders: Type.Union([Type.Literal('request'), Type.Literal('stake-gate'), Type.Literal('block')]),
        stake: Type.Optional(Type.String({ maxLength: 40 })),
      },
      { additionalProperties: false },
    ),
  ),
  'relay.status': cmd<RelayStatus>()(NoArgs),
  'relay.setLocal': cmd<RelayStatus>()(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
  'relay.shareOnLan': cmd<RelayStatus>()(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
  'sync.now': cmd<SyncStatus>()(NoArgs),

  // live: typing notices, mute, the person's preferences, desktop notifications
  /** `on` while composing (sent at most every 3 s), `off` on send or clear; direct conversations only */
  'conversations.typing': cmd<void>()(
    Type.Object(
      { conversationId: ConvId, state: Type.Union([Type.Literal('on'), Type.Literal('off')]) },
      { additionalProperties: false },
    ),
  ),
  'conversations.mute': cmd<ConversationSummary>()(
    Type.Object({ conversationId: ConvId, muted: Type.Boolean() }, { additionalProperties: false }),
  ),
  'preferences.get': cmd<Preferences>()(NoArgs),
  'preferences.set': cmd<Preferences>()(
    Type.Object(
      {
        readReceipts: Type.Optional(Type.Boolean()),
        notifications: Type.Optional(Type.Boolean()),
        notificationPreview: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('sender')])),
      },
      { additionalProperties: false },
    ),
  ),
  /**
   * Shows a desktop notification through the shell (Electron's Notification); `shown: false`
   * where the shell has none (web mode), and the page uses the browser's. A click is the
   * `notification.clicked` event.
   */
  'notifications.show': cmd<{ shown: boolean }>()(
    Type.Object(
      {
        title: Type.String({ maxLength: 200 }),
        body: Type.String({ maxLength: 500 }),
        conversationId: Type.Optional(ConvId),
      },
      { additionalProperties: false },
    ),
  ),
  // backups (src/main/client/backup/backups.ts): null when the person cancelled the shell's save dialog;
  // in web mode the file is downloaded, and in both a restore's file is uploaded, in base64 pieces
  'backup.export': cmd<BackupSummary | null>()(
    Type.Object(
      { passphrase: Type.String({ minLength: BACKUP_PASSPHRASE_MIN, maxLength: 1024 }) },
      { additionalProperties: false },
    ),
  ),
  'backup.download': cmd<{ data: string; next: number | null }>()(
    Type.Object({ name: BackupName, offset: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  ),
  'backup.upload': cmd<{ name: string; size: number }>()(
    Type.Object(
      {
        name: Type.Optional(BackupName),
        offset: Type.Integer({ minimum: 0 }),
        data: Type.String({ maxLength: Math.ceil(BACKUP_PIECE_BYTES / 3) * 4 }),
      },
      { additionalProperties: false },
    ),
  ),
  'backup.restore': cmd<BackupSummary>()(
    Type.Object(
      { name: BackupName, passphrase: Type.String({ minLength: 1, maxLength: 1024 }) },
      { additionalProperties: false },
    ),
  ),
  'links.openExternal': cmd<void>()(
    Type.Object({ url: Type.String({ pattern: '^https?://', maxLength: 2048 }) }, { additionalProperties: false }),
  ),
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandArgs<K extends CommandName> = Static<Commands[K]['args']>;
export type CommandResult<K extends CommandName> = Commands[K]['result'];

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

/** Errors cross the doorway as codes and plain-language messages, never stack traces. */
export interface IpcError {
  code: string;
  message: string;
}
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** The object the preload (or the web bridge) exposes as `window.messenger`. */
export type MessengerBridge = {
  [K in CommandName]: (args: CommandArgs<K>) => Promise<CommandResult<K>>;
} & {
  on<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void;
};

// The preload's list of names (bridge-methods.ts) is the contract's, neither more nor fewer.
type ListedCommand = (typeof commandNames)[number];
const _sameNames: [Exclude<CommandName, ListedCommand>, Exclude<ListedCommand, CommandName>] extends [never, never]
  ? true
  : never = true;
void _sameNames;

// Compile-time check that argument types are inferred (not unknown).
type _Check = CommandArgs<'messages.send'>['text'] extends string ? true : never;
const _check: _Check = true;
void _check;
