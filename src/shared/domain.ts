/**
 * Domain types the client produces and the renderer shows. Plain data: what crosses the
 * IPC doorway (structured clone in Electron, JSON in web mode).
 */
import type { MessageFile } from './attachments.js';
import type { Routed, StakeCurrency } from './api/common.js';
import type { UnknownSenders } from './api/account.js';

export type ConversationKind = 'direct' | 'group';

/** A conversation id is `direct:<address>` or `group:<uuid>`. */
export type ConversationId = `direct:${string}` | `group:${string}`;

export interface ConversationSummary {
  id: ConversationId;
  kind: ConversationKind;
  /** peer address for direct, group id for group */
  peer: string;
  title: string; // handle, group name, or short address
  verified: boolean;
  /**
   * the newest message; `kind` says what stands in for its words (a deleted message, a timer
   * change), and `text` is then that in English, for the CLI: the app words it in its language
   */
  lastMessage: { text: string; at: string; fromMe: boolean; kind?: 'text' | 'deleted' | 'timer' } | null;
  unread: number;
  updatedAt: string;
  /** no notifications for this conversation (its unread count still shows) */
  muted: boolean;
  /** disappearing-message timer in seconds (0 = off), as the last timer notice set it */
  timerSeconds: number;
  /** direct conversations: who the peer is to me (null for groups) */
  relationship: Relationship | null;
  /** nothing can be sent here any more, and why; null while it is open */
  closed: ConversationClosed | null;
}

/**
 * Who someone is to me, decided in one place (src/main/client/contacts/relationship.ts) and
 * followed by every screen: `requester` wrote first and waits in Requests, `request-sent` is
 * someone I wrote to who has not answered, `member` shares a group with me and nothing more.
 */
export type Relationship = 'self' | 'contact' | 'requester' | 'request-sent' | 'blocked' | 'member' | 'stranger';

/** Why a conversation takes no more messages: removed from its group (`by` whom, when known), or left it. */
export type ConversationClosed = { reason: 'removed'; by: string | null } | { reason: 'left' };

/** Someone I blocked (Settings → Blocked). */
export interface BlockedPerson {
  address: string;
  handle: string | null;
  verified: boolean;
}

/** The person's choices about what others learn and what the desktop shows (kept per profile). */
export interface Preferences {
  /** send `read` receipts when a conversation is shown (delivered receipts always go) */
  readReceipts: boolean;
  /** desktop notifications for new messages and contact requests while the window is not focused */
  notifications: boolean;
  /** what a notification shows: the text, or only who wrote */
  notificationPreview: 'full' | 'sender';
}

export const DEFAULT_PREFERENCES: Preferences = {
  readReceipts: true,
  notifications: false,
  notificationPreview: 'full',
};

/** The handle main knows for an address (from a message, the directory, or a claim it saw). */
export interface KnownHandle {
  address: string;
  handle: string;
  verified: boolean;
}

/** The peer is composing (`on`) or stopped (`off`); the app shows it for 6 s unless renewed. Never stored. */
export interface TypingNotice {
  conversationId: ConversationId;
  from: string;
  state: 'on' | 'off';
}

/**
 * The longest message the app sends, in characters (UTF-16 code units, as a text field counts
 * them). Longer text is refused with a clear message, or split, never cut.
 */
export const MESSAGE_MAX_CHARS = 20_000;

/**
 * Per-message state as the sender sees it: queued in the outbox (`sending`), accepted by the
 * relay (`sent`, with how it was routed), or `failed` (retry possible).
 */
export type MessageState = 'sending' | 'sent' | 'failed';

/**
 * How far an own message got, as its ticks show it: in the outbox (`sending`), accepted by the
 * relay (`sent`), stored on the peer's device (`delivered`), seen by the peer (`read`). Receipts
 * only move it forward: a late `delivered` never takes back a `read`.
 */
export type DeliveryState = 'sending' | 'sent' | 'delivered' | 'read';

/** What a receipt message reports (wire format, kind `receipt`). */
export type ReceiptState = 'delivered' | 'read';

export interface ChatMessage {
  id: string;
  conversationId: ConversationId;
  /** author wallet address (for a bot post: the bot's own address) */
  from: string;
  fromMe: boolean;
  /** author's handle when known */
  fromHandle: string | null;
  kind: 'text' | 'request';
  text: string;
  sentAt: string;
  receivedAt: string | null;
  state: MessageState;
  /** own messages: how far it got (a failed send is `sending` until retried); null for received ones */
  delivery: DeliveryState | null;
  /** how the relay routed it (sender side); for received: 'inbox' or 'request' */
  routed: Routed | null;
  stakeRequired: string | null;
  stakeCurrency: StakeCurrency | null;
  /** 'group-token' marks a bot post */
  via: 'group-token' | 'api-key' | null;
  /** on a bot post, the relay's name for the group token that posted it; null otherwise */
  botName: string | null;
  error: string | null;
  /**
   * for a failed send, the relay's code when it named one: `recipient-full` (their inbox on the
   * relay is full), `requests-full` (the share of it contact requests may fill is full),
   * `too-many-requests-pending`, `storage-full` (the relay is low on disk)
   */
  errorCode: string | null;
  /** when the author last edited it (kind `edit`); null if never */
  editedAt: string | null;
  /** the author deleted it (kind `delete`): the text is gone, a "message deleted" placeholder stays */
  deleted: boolean;
  /** a timer notice: the seconds the author set (0 = off); null for an ordinary message */
  timerSeconds: number | null;
  /** the sender's disappearing timer when sent (seconds), null if none */
  expiresIn: number | null;
  /** when this device removes it (ISO), once the countdown started (read here, or sent by us) */
  expiresAt: string | null;
  /** its files (kind `attachment`), when it has any: filled where messages leave main for the app */
  files?: MessageFile[];
}

/**
 * What deleting one of your own messages answers: the message as it now is ("message deleted"),
 * or, for one still waiting to go, `removed: true`: it was withdrawn before it left and is gone.
 */
export type DeletedMessage = ChatMessage & { removed?: true };

export interface ContactRequest {
  address: string;
  handle: string | null;
  verified: boolean;
  /** the intro text of the first request message */
  intro: string;
  receivedAt: string;
  messageCount: number;
}

export interface DirectoryHit {
  handle: string;
  address: string;
  verified: boolean;
  relationship: Relationship;
}

export interface GroupInfo {
  id: string;
  name: string;
  isPublic: boolean;
  verified: boolean;
  hasPassword: boolean;
  avatar: string | null;
  memberCount: number;
  createdAt: string;
  /** present when the caller is a member */
  creatorAddress?: string;
  members?: string[];
  /** present when fetched from the relay by a member: who the creator made admins */
  admins?: string[];
  /** present for the creator and admins: wallets invited but not yet members */
  invited?: string[];
  isMember: boolean;
  isCreator: boolean;
  /** the caller may manage the group: its creator, or an admin (known once fetched as a member) */
  canManage?: boolean;
  /** the caller was a member and is no more: removed (by whom, when known) or left */
  closed?: ConversationClosed | null;
}

/** What adding someone to a group did: added at once, or invited (they must accept). */
export type GroupAddResult = GroupInfo & { added: 'member' | 'invited' };

/** A group someone invited me to; nothing of it reaches me until I accept. */
export interface GroupInvitation {
  groupId: string;
  name: string;
  creatorAddress: string;
  invitedBy: string;
  invitedAt: string;
}

export interface BotToken {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface DeviceInfo {
  publicKey: string;
  createdAt: string;
  current: boolean;
  /** another device of ours: whether this device sent it its history, or was told "not now" (null: neither yet) */
  history: 'sent' | 'declined' | null;
}

export interface ApiKeyInfo {
  id: string;
  label: string | null;
  prefix: string;
  deviceKey: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface InboxPolicy {
  unknownSenders: UnknownSenders;
  stake: string | null;
}

/** The relay's stake chain as this profile reaches it (docs/protocol.md §13 Stakes). */
export interface StakeSettings {
  /** false: the relay takes no stakes */
  enabled: boolean;
  currency: StakeCurrency;
  chainId: number | null;
  escrow: string | null;
  /** the JSON-RPC endpoint in use: our own for this chain when set, else the relay's first */
  rpcUrl: string | null;
  rpcUrlOverridden: boolean;
  relayRpcUrls: string[];
  /** an ignored stake comes back to its sender after this long */
  minLockSeconds: number;
  /** our wallet's balance on that chain, in wei; null when it could not be read (see balanceError) */
  balanceWei: string | null;
  balanceError: string | null;
}

/** A stake this wallet sent or received. */
export interface StakeInfo {
  id: string;
  role: 'sent' | 'received';
  /** the other side: the recipient of a sent stake, the sender of a received one */
  peer: string;
  amountWei: string;
  currency: StakeCurrency;
  status: 'active' | 'released' | 'forfeited' | 'refunded';
  /** epoch seconds: refundable to the sender from then */
  deadline: number;
  createdAt: string;
  /** the recipient accepted (signed the release); the sender collects it with a refund */
  released: boolean;
  /** the sender can take it back now (accepted, or past its deadline) */
  refundable: boolean;
}

export type RelayMode = 'local' | 'lan' | 'url';

export interface RelayStatus {
  mode: RelayMode | null;
  url: string | null;
  /** reachable at the last sync attempt */
  connected: boolean;
  /** why the last attempt failed, as a sentence for people (shared/plain-errors.ts) */
  lastError: string | null;
  /** the same failure as the network or relay put it (`connect ECONNREFUSED …`), for a "Details" disclosure */
  lastErrorDetail?: string | null;
  /**
   * this device's key was revoked on this relay (from another device of the wallet): it keeps
   * what is on its disk but can no longer sign in there with this key
   */
  revoked?: boolean;
  /** the embedded relay, when this app runs one */
  local: {
    running: boolean;
    url: string | null;
    lan: { urls: string[]; fingerprint: string } | null;
    /** the built-in relay's data folder, for its operator's commands (`npm run relay -- admin --data …`) */
    dataDir?: string;
  };
}

/** An envelope that failed a check (forged, tampered, misaddressed…): acked and dropped, never shown. */
export interface RejectedMessage {
  envelopeId: string;
  /** the sender the envelope claims; not to be trusted, which is the point */
  claimedSender: string;
  reason: string;
}

export interface SyncStatus {
  state: 'idle' | 'syncing' | 'offline' | 'error';
  lastSyncAt: string | null;
  pendingOutbox: number;
  error: string | null;
}

export interface AppStatus {
  /** 'electron' or 'web' */
  shell: 'electron' | 'web';
  hasWallet: boolean;
  unlocked: boolean;
  /** the wallet is open and signed in to a relay */
  ready: boolean;
  address: string | null;
  handle: string | null;
  deviceKey: string | null;
  relay: RelayStatus;
  /** the OS keychain protects the wallet, so no passphrase is asked for */
  keychain?: boolean;
  /**
   * Why the desktop app does not trust the OS keychain here: `basic_text` (Linux without a
   * secret service: Chromium's fallback is a fixed password) or `unavailable`; null when it does.
   * With `keychain` also true, the wallet predates the check and is protected only that weakly.
   */
  keychainRefused?: 'basic_text' | 'unavailable' | null;
  /**
   * The wallet's recovery phrase: `unconfirmed` until the person confirms writing it down (setup
   * shows it again until then), `kept` once confirmed (Settings shows it after the passphrase),
   * `none` for a wallet imported from a private key; null while locked or without a wallet.
   */
  recoveryPhrase?: 'unconfirmed' | 'kept' | 'none' | null;
}
