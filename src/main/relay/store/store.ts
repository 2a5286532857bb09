/**
 * The relay's storage, behind one async interface so that a PostgreSQL implementation can
 * replace SQLite for teams that outgrow one machine. Every method is async even where the
 * SQLite implementation is synchronous underneath.
 *
 * Conventions: addresses and hex keys are lower-case; times are epoch milliseconds; ids are
 * uuid strings. Methods that can refuse throw StoreError with a code the HTTP layer maps.
 */
import type { Routed, StakeCurrency, Via } from '../../../shared/api/common.js';
import type { UnknownSenders } from '../../../shared/api/account.js';
import type { StakeRefusal, StakeStatus } from '../../../shared/stake/stake-types.js';
import type { AccountDeletion, Admission, InviteRow, RegistrationMode, UserRow } from './moderation-rows.js';

export type StoreErrorCode =
  | 'device-key-mismatch' // recipientDeviceKey is not a current key of toAddress (400)
  | 'not-a-member' // group envelope to a non-member (400)
  | 'handle-taken' // 409
  | 'device-exists' // 409
  | 'not-found' // 404
  | 'creator-cannot-leave' // 409
  | 'nonce-invalid' // unknown, expired, used, or bound to another address (401)
  | 'recipient-full' // the send would pass a recipient device's queue quota (429)
  | 'requests-full' // a request-routed send would pass half of that quota, the share strangers may fill (429)
  | 'too-many-requests-pending' // too many undelivered requests (and invitations) from this sender to this wallet (429)
  | 'too-many-devices' // the wallet already has MAX_DEVICES current devices (409)
  | 'too-many-keys' // the wallet already has its maximum of active API keys (409)
  | 'too-many-groups' // the wallet already created its maximum of groups (429)
  | 'too-many-tokens' // the group already has MAX_TOKENS_PER_GROUP live bot tokens (409)
  | 'too-many-entries' // the wallet's allow or block list already holds MAX_LIST_ENTRIES addresses (409)
  | 'blob-quota-full'; // the upload would pass the uploader's blob storage quota (429)

/** Current devices a wallet may have at once (docs/protocol.md §4 Limits). */
export const MAX_DEVICES = 16;

/** Live bot tokens one group may have at once (docs/protocol.md §4 Limits). */
export const MAX_TOKENS_PER_GROUP = 20;

/** Addresses one wallet's allow list, and its block list, may hold each (docs/protocol.md §4 Limits). */
export const MAX_LIST_ENTRIES = 10_000;

/**
 * The share of a recipient device's queue quota that request-routed envelopes (strangers') may
 * fill, so that a flood of them never makes a contact's message bounce (docs/protocol.md §4 Limits).
 */
export const requestShare = (quota: number): number => Math.floor(quota / 2);

/** Per-recipient queue limits a send is checked against (docs/protocol.md §4 Limits); operator flags. */
export interface QueueLimits {
  /** undelivered envelopes per recipient device (per wallet for envelopes sealed to no device) */
  maxQueued: number;
  /** decoded ciphertext bytes, same scope */
  maxQueuedBytes: number;
  /** undelivered request-routed envelopes and pending group invitations from one sender to one recipient wallet */
  maxRequestsPerPair: number;
}

/** What an invitation to a group is checked against (docs/protocol.md, Limits): it is a contact request. */
export interface InviteRules {
  /** the pending invitation counts with the inviter's contact requests toward this */
  maxRequestsPerPair: number;
  /** false on a relay without a stake chain: a stake-gated wallet is invited like any other */
  stakesEnabled: boolean;
}

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** index of the offending envelope within a delivery, when there is one */
    readonly index?: number,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * The database could not be reached (a clustered store's PostgreSQL is down or restarting):
 * answered 503 with Retry-After, never 500. A delivery that fails so is never half-applied.
 */
export class StoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailable';
  }
}

export interface AccountRow {
  address: string;
  handle: string | null;
  handleClaimedAt: number | null;
  verified: boolean;
  unknownSenders: UnknownSenders;
  stake: string | null;
}

export interface DeviceRow {
  publicKey: string;
  address: string;
  certificate: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface ApiKeyRow {
  id: string;
  address: string;
  label: string | null;
  prefix: string;
  deviceKey: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface BotTokenRow {
  id: string;
  groupId: string;
  name: string;
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
  /**
   * The creator or admin who minted it (null for tokens minted before this was recorded): a
   * member who blocks them gets nothing from it, and it is revoked when they stop being an admin
   * or a member.
   */
  mintedBy: string | null;
}

export interface GroupRow {
  id: string;
  name: string;
  isPublic: boolean;
  verified: boolean;
  passwordHash: string | null;
  avatar: string | null;
  creatorAddress: string;
  createdAt: number;
  memberCount: number;
}

export interface EnvelopeRow {
  id: string;
  senderAddress: string;
  recipientAddress: string;
  recipientDeviceKey: string | null;
  ciphertext: string; // base64, padded
  ephemeralPublicKey: string;
  nonce: string; // base64, padded
  createdAt: number;
  routed: 'inbox' | 'request';
  groupId: string | null;
  via: Via | null;
  /** the name of the group token that posted, on a group-token send only */
  botName: string | null;
  /** the wire EnvelopeStake as JSON text, on a staked request only */
  stake?: string | null;
}

/** A quote the relay issued for a stake-gated send; times in epoch ms, deadlines in epoch seconds. */
export interface StakeQuoteRow {
  ref: string;
  sender: string;
  recipient: string;
  amountWei: string;
  minDeadline: number;
  maxDeadline: number;
  createdAt: number;
  expiresAt: number;
}

/** A stake that opened a request, as last read from the chain. */
export interface StakeRow {
  id: string;
  ref: string;
  chainId: number;
  escrow: string;
  sender: string;
  recipient: string;
  amountWei: string;
  /** epoch seconds */
  deadline: number;
  status: StakeStatus;
  releaseSignature: string | null;
  createdAt: number;
}

/**
 * What the HTTP layer found for an envelope's `stakeRef` before the delivery: a stake read
 * from the chain that fits its quote, or why not.
 */
export type StakeCheck = { ok: StakeRow } | { refused: StakeRefusal };

/** One envelope to deliver, already validated and normalised by the HTTP layer. */
export interface DeliveryItem {
  toAddress: string;
  recipientDeviceKey: string | null;
  ciphertext: string;
  ephemeralPublicKey: string;
  nonce: string;
  asRequest: boolean;
  /** the quote ref the sender deposited with (docs/protocol.md §13 Stakes), lower-case */
  stakeRef?: string;
  /** present when the envelope carried a stakeRef */
  stake?: StakeCheck;
}

/** A whole send request: all of it is delivered or none of it (StoreError names the item). */
export interface Delivery {
  senderAddress: string;
  /** null for a direct send */
  groupId: string | null;
  via: Via | null;
  /** the posting token's name, kept only when via is group-token */
  botName?: string | null;
  /** who minted the posting token, on a group-token send: a recipient who blocks them gets `blocked` */
  minter?: string | null;
  items: DeliveryItem[];
  /** time stamped on every envelope of the delivery */
  now: number;
  /** false on a relay without a stake chain: stake-gated recipients get plain requests (default: gated) */
  stakesEnabled?: boolean;
  /** none when omitted (operator tools, tests of other rules) */
  limits?: QueueLimits;
}

export interface DeliveryOutcome {
  routed: Routed;
  stakeRequired?: string;
  stakeCurrency?: StakeCurrency;
  /** why a staked send was refused */
  stakeStatus?: StakeRefusal;
  envelope?: EnvelopeRow;
}

/** The facts the routing rules need, read inside the delivery's transaction. */
export interface RoutingFacts {
  blockedByRecipient: boolean;
  asRequest: boolean;
  allowedByRecipient: boolean;
  recipientSentBefore: boolean;
  recipientPolicy: UnknownSenders;
  recipientStake: string | null;
}

/**
 * What adding a wallet to a group did (docs/protocol.md §12 Groups): `stake-required` when the wallet asks
 * strangers for a stake and the adder has paid none to it.
 */
export type AddOutcome = 'member' | 'invited' | 'blocked' | 'stake-required';

/** A caller's standing in a group. */
export type GroupRole = 'creator' | 'admin' | 'member';

export interface InvitationRow {
  groupId: string;
  name: string;
  creatorAddress: string;
  invitedBy: string;
  invitedAt: number;
}

export interface GroupPatch {
  name?: string;
  isPublic?: boolean;
  passwordHash?: string | null;
  avatar?: string | null;
}

/** An uploaded blob's metadata (docs/protocol.md §14 Blobs); its bytes are a file named by the id. */
export interface BlobRow {
  /** 128 random bits, base64url */
  id: string;
  uploader: string;
  size: number;
  createdAt: number;
  expiresAt: number;
}

/** What deleting a blob found. */
export type BlobDeleteOutcome = 'deleted' | 'not-found' | 'not-yours';

export interface RelayStats {
  accounts: number;
  devices: number;
  apiKeys: number;
  groups: number;
  queuedEnvelopes: number;
  oldestQueuedAt: number | null;
}

export interface RelayStore {
  /**
   * True when this process makes every commit that queues envelopes, one after another, and
   * `deliver` settles in commit order (SQLite's one writer connection): a held pull woken by a
   * delivery may then be answered with that delivery's envelopes (live/waiters.ts, Handed).
   */
  readonly commitsInOrder?: boolean;

  // sign-in challenges
  createChallenge(c: { nonce: string; address: string; message: string; expiresAt: number }): Promise<void>;
  /** Marks the nonce used and returns its stored message and address; throws nonce-invalid if unknown, used or expired. */
  consumeChallenge(nonce: string, now: number): Promise<{ address: string; message: string }>;

  // accounts, handles, directory
  getAccount(address: string): Promise<AccountRow | null>;
  /** Claims or changes a handle (stored lower-case); throws handle-taken. */
  setHandle(address: string, handle: string, now: number): Promise<AccountRow>;
  findHandle(handle: string): Promise<AccountRow | null>;
  /** Exact handle match first, then fragments of handle or address, newest claims first. */
  searchDirectory(q: string | null, limit: number): Promise<AccountRow[]>;
  setPolicy(address: string, unknownSenders: UnknownSenders, stake: string | null): Promise<void>;
  getEntitlements(address: string): Promise<string[]>;

  // devices
  /** Registers a device for an address (creating the account row if needed); throws device-exists or too-many-devices. */
  addDevice(d: { publicKey: string; address: string; certificate: string; now: number }): Promise<DeviceRow>;
  listDevices(address: string): Promise<DeviceRow[]>; // non-revoked only, oldest first
  /** Revokes a device, the API keys bound to it, and drops its undelivered envelopes; false if not the caller's. */
  revokeDevice(address: string, publicKey: string, now: number): Promise<boolean>;

  // API keys (hash = SHA-256 of the secret; the store never sees secrets)
  /**
   * Throws too-many-keys when the wallet already has `maxActive` unrevoked keys (no cap when omitted).
   * With `device` (a sign-in's certificate of `k.deviceKey`), that device is registered in the same
   * transaction unless it is already one of the wallet's current devices (as addDevice: device-exists,
   * too-many-devices), after the key cap is checked: a refused sign-in registers nothing.
   */
  insertApiKey(k: ApiKeyRow & { hash: Buffer }, maxActive?: number, device?: { certificate: string }): Promise<void>;
  findApiKeyByHash(hash: Buffer): Promise<(ApiKeyRow & { hash: Buffer }) | null>;
  listApiKeys(address: string): Promise<ApiKeyRow[]>;
  revokeApiKey(address: string, id: string, now: number): Promise<boolean>;
  touchApiKey(id: string, now: number): Promise<void>;

  // contacts
  /**
   * Files `other` in the list `kind` (null: removes it from `which`). Throws too-many-entries when
   * a new entry would take that list past `maxEntries` (no cap when omitted); re-filing an address
   * already there is never refused.
   */
  setContact(
    owner: string,
    other: string,
    kind: 'allow' | 'block' | null,
    which: 'allow' | 'block',
    maxEntries?: number,
  ): Promise<void>;
  getContacts(owner: string): Promise<{ allowed: string[]; blocked: string[] }>;

  // envelopes
  /** Routes and queues a whole send in one transaction (grouped with concurrent sends into one commit). */
  deliver(d: Delivery): Promise<DeliveryOutcome[]>;
  /** Undelivered envelopes oldest first; a device-bound caller sees its device's and unbound ones. */
  pull(address: string, deviceKey: string | null, limit: number): Promise<EnvelopeRow[]>;
  /**
   * The same page as `pull`, already the JSON text of the wire `Envelope[]` (src/shared/api),
   * built by the database: the inbox pull is the relay's hottest read, and one string from
   * SQLite costs a third of a hundred row objects presented and stringified, with far less
   * garbage (measured in the bench's pull latency). A test holds it equal to `pull` presented.
   */
  pullWire(address: string, deviceKey: string | null, limit: number): Promise<string>;
  /** Removes the caller's own envelopes among ids and returns how many. */
  ack(address: string, deviceKey: string | null, ids: string[]): Promise<number>;
  /** Removes unacked envelopes created before cutoff; returns how many. */
  sweep(cutoff: number): Promise<number>;

  // groups
  /** Throws too-many-groups when the creator already created `maxPerCreator` groups (no cap when omitted). */
  createGroup(
    g: {
      id: string;
      name: string;
      isPublic: boolean;
      passwordHash: string | null;
      avatar: string | null;
      creatorAddress: string;
      now: number;
    },
    maxPerCreator?: number,
  ): Promise<GroupRow>;
  getGroup(id: string): Promise<GroupRow | null>;
  patchGroup(id: string, patch: GroupPatch): Promise<GroupRow>;
  /** Public groups (or the address's groups when mine is given), newest first, paged by the id of the last one seen. */
  listGroups(opts: { mine: string | null; limit: number; before: string | null }): Promise<GroupRow[]>;
  listMembers(groupId: string): Promise<string[]>;
  isMember(groupId: string, address: string): Promise<boolean>;
  /** Adds at once (joining, accepting); clears any invitation of that address. */
  addMember(groupId: string, address: string, now: number): Promise<void>;
  /**
   * Adds a wallet on someone's behalf by the wallet's own routing: a member at once when it
   * allows `by` (or has written to `by`), refused when it blocks the creator or `by` or blocks
   * strangers, `stake-required` when it asks strangers for a stake and `by` has paid it none,
   * otherwise invited. An existing member stays one. With `rules`, a new invitation counts with
   * `by`'s contact requests to the wallet (throws too-many-requests-pending past the cap).
   */
  addOrInvite(groupId: string, address: string, by: string, now: number, rules?: InviteRules): Promise<AddOutcome>;
  listInvitations(address: string): Promise<InvitationRow[]>;
  listInvited(groupId: string): Promise<string[]>;
  /** Accepts (joins) or declines; false when there is no such invitation. Withdrawing one is a decline by the inviter. */
  answerInvitation(groupId: string, address: string, accept: boolean, now: number): Promise<boolean>;
  /** creator, admin, member, or null for anyone else (invited wallets included) */
  role(groupId: string, address: string): Promise<GroupRole | null>;
  listAdmins(groupId: string): Promise<string[]>;
  /**
   * false when the address is not a member. Demoted, the address's bot tokens of the group are
   * revoked at `now` in the same transaction.
   */
  setAdmin(groupId: string, address: string, admin: boolean, now?: number): Promise<boolean>;
  /**
   * Throws creator-cannot-leave when the creator would leave a group that still has others; the
   * bot tokens the address minted for the group are revoked at `now` in the same transaction.
   */
  removeMember(groupId: string, address: string, now?: number): Promise<boolean>;
  /** Devices (non-revoked) of each member, for the group view. */
  memberDevices(groupId: string): Promise<Map<string, DeviceRow[]>>;
  /** Throws too-many-tokens when the group already has `maxLive` unrevoked tokens (no cap when omitted). */
  insertBotToken(t: BotTokenRow & { hash: Buffer }, maxLive?: number): Promise<void>;
  findBotTokenByHash(hash: Buffer): Promise<(BotTokenRow & { hash: Buffer }) | null>;
  listBotTokens(groupId: string): Promise<BotTokenRow[]>;
  revokeBotToken(groupId: string, id: string, now: number): Promise<boolean>;

  // stakes (docs/protocol.md §13 Stakes)
  createStakeQuote(q: StakeQuoteRow): Promise<void>;
  getStakeQuote(ref: string): Promise<StakeQuoteRow | null>;
  getStake(id: string): Promise<StakeRow | null>;
  /** The address's stakes, newest first: those it sent, received, or both. */
  listStakes(address: string, role: 'sent' | 'received' | null, limit: number): Promise<StakeRow[]>;
  setStakeStatus(id: string, status: StakeStatus): Promise<void>;
  setReleaseSignature(id: string, signature: string): Promise<void>;

  // blobs (docs/protocol.md §14 Blobs): metadata only; the bytes are files the HTTP layer keeps
  /** Bytes of the uploader's blobs that have not expired at `now`. */
  blobUsage(uploader: string, now: number): Promise<number>;
  /** Records a blob whose file is already in place; throws blob-quota-full when the uploader's unexpired blobs would pass quotaBytes. */
  insertBlob(b: BlobRow, quotaBytes: number): Promise<void>;
  /** The row, expired or not (the caller decides what an expired one means). */
  getBlob(id: string): Promise<BlobRow | null>;
  /** Removes the row when `uploader` uploaded it. */
  deleteBlob(id: string, uploader: string): Promise<BlobDeleteOutcome>;
  /** Removes rows that expired at or before `now` (at most `limit`) and returns their ids, so their files can go. */
  sweepBlobs(now: number, limit: number): Promise<string[]>;
  /** Those of `ids` that have no row: files left by a crash between rename and commit. */
  unknownBlobIds(ids: string[]): Promise<string[]>;

  // who may join, and moderation (store/moderation-rows.ts)
  /**
   * Decides a sign-in whose signature checked out, in one transaction: a suspended wallet is
   * refused; a wallet the relay knows is admitted whatever the mode; a new one is admitted in
   * `open` mode, or in `invite` mode by spending one use of a live `invite` code, and its account
   * row is made at once so that a later sign-in needs no code. Admission records the time.
   */
  admitSignIn(
    address: string,
    rule: { mode: RegistrationMode; invite: string | null; now: number },
  ): Promise<Admission>;
  createInvite(i: { code: string; uses: number; expiresAt: number | null; now: number }): Promise<InviteRow>;
  /** Every code, revoked and used-up ones included, newest first. */
  listInvites(): Promise<InviteRow[]>;
  /** false when there is no such code. */
  revokeInvite(code: string, now: number): Promise<boolean>;
  /**
   * Suspends (revoking every active API key of the wallet, and the bot tokens of the groups it
   * created, which post as it, in the same transaction) or lifts a suspension; false when the
   * relay does not know the wallet.
   */
  setSuspended(address: string, suspended: boolean, reason: string | null, now: number): Promise<boolean>;
  /** Every wallet the relay knows, oldest first. */
  listUsers(): Promise<UserRow[]>;
  /**
   * Removes the wallet's account, keys, devices, handle, entitlements, contacts, memberships,
   * invitations, queue and blob rows in one transaction. Each group it created passes to its
   * longest-serving other admin, or is deleted with its queue when it has none; the bot tokens
   * of those groups, which post as their creator, are revoked either way. null: an unknown wallet.
   */
  deleteAccount(address: string): Promise<AccountDeletion | null>;

  // operator
  setVerified(address: string, verified: boolean): Promise<boolean>;
  setGroupVerified(id: string, verified: boolean): Promise<boolean>;
  grantEntitlement(address: string, name: string): Promise<void>;
  revokeEntitlement(address: string, name: string): Promise<boolean>;
  stats(): Promise<RelayStats>;
  /** Whether the database answers right now (GET /healthz); never throws. */
  healthy(): Promise<boolean>;
  /**
   * Whether the database answers and holds the schema this code migrates to (GET /readyz): a
   * cluster's database restored from an older backup answers but is not ready. Never throws.
   */
  readiness(): Promise<'ready' | 'unreachable' | 'not-migrated'>;
  /** Bytes the database takes and bytes of the blobs it lists (expired ones not yet swept included), for the metrics. */
  storageBytes(): Promise<{ database: number; blobs: number }>;

  /** Waits for pending grouped commits, checkpoints and closes. */
  close(): Promise<void>;
}
