/**
 * What the operator's moderation reads and writes (docs/operations.md, Registration and
 * moderation): who may sign in, invite codes, suspended wallets and the list of users.
 */

/** Who may sign in for the first time: anyone, a holder of a live invite code, or nobody new. */
export type RegistrationMode = 'open' | 'invite' | 'closed';

export const REGISTRATION_MODES: readonly RegistrationMode[] = ['open', 'invite', 'closed'];

/** Why a sign-in was not admitted; a wallet already known is never refused for the mode. */
export type Admission = 'admitted' | 'suspended' | 'invite-required' | 'invite-invalid' | 'registration-closed';

export interface InviteRow {
  code: string;
  usesLeft: number;
  /** epoch ms, null: never expires */
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
}

export type UserState = 'active' | 'suspended';

export interface UserRow {
  address: string;
  handle: string | null;
  /** current devices */
  devices: number;
  /** epoch ms of the last admitted sign-in, null before the relay recorded any */
  lastSignIn: number | null;
  /** envelopes waiting for this wallet */
  queued: number;
  state: UserState;
}

/** What deleting an account did; its blob files go with their rows (or at the next sweep). */
export interface AccountDeletion {
  blobIds: string[];
  /** groups it created that passed to their longest-serving admin */
  groupsPassed: number;
  /** groups it created that had no other admin, deleted with their queue */
  groupsDeleted: number;
}
