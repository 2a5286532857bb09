/**
 * The slices of RelayStore that each backend builds in a part of its own (`accountsPart(db)`,
 * `pgAccountsPart(sql)`, …) and spreads into one store: both backends' parts answer to these.
 */
import type { RelayStore } from './store.js';

export type AccountsPart = Pick<
  RelayStore,
  | 'createChallenge'
  | 'consumeChallenge'
  | 'getAccount'
  | 'setHandle'
  | 'findHandle'
  | 'searchDirectory'
  | 'setPolicy'
  | 'getEntitlements'
  | 'setContact'
  | 'getContacts'
  | 'setVerified'
  | 'grantEntitlement'
  | 'revokeEntitlement'
>;

export type CredentialsPart = Pick<
  RelayStore,
  | 'addDevice'
  | 'listDevices'
  | 'revokeDevice'
  | 'insertApiKey'
  | 'findApiKeyByHash'
  | 'listApiKeys'
  | 'revokeApiKey'
  | 'touchApiKey'
>;

export type GroupsPart = Pick<
  RelayStore,
  | 'createGroup'
  | 'getGroup'
  | 'patchGroup'
  | 'listGroups'
  | 'listMembers'
  | 'isMember'
  | 'addMember'
  | 'addOrInvite'
  | 'listInvitations'
  | 'listInvited'
  | 'answerInvitation'
  | 'role'
  | 'listAdmins'
  | 'setAdmin'
  | 'removeMember'
  | 'memberDevices'
  | 'insertBotToken'
  | 'findBotTokenByHash'
  | 'listBotTokens'
  | 'revokeBotToken'
  | 'setGroupVerified'
>;

export type EnvelopesPart = Pick<RelayStore, 'deliver' | 'pull' | 'pullWire' | 'ack' | 'sweep'>;

export type StakesPart = Pick<
  RelayStore,
  'createStakeQuote' | 'getStakeQuote' | 'getStake' | 'listStakes' | 'setStakeStatus' | 'setReleaseSignature'
>;

export type ModerationPart = Pick<
  RelayStore,
  'admitSignIn' | 'createInvite' | 'listInvites' | 'revokeInvite' | 'setSuspended' | 'listUsers' | 'deleteAccount'
>;

export type BlobsPart = Pick<
  RelayStore,
  'blobUsage' | 'insertBlob' | 'getBlob' | 'deleteBlob' | 'sweepBlobs' | 'unknownBlobIds'
>;
