import { StoreError } from './store.js';

/** The refusals of the limits of docs/protocol.md (Limits) that both stores raise alike. */

export const tooManyGroups = (max: number) =>
  new StoreError('too-many-groups', `a wallet can create at most ${max} groups on this relay`);

export const invitationsPending = (to: string, max: number) =>
  new StoreError(
    'too-many-requests-pending',
    `${to} has not yet answered ${max} of your contact requests and group invitations; nothing was sent`,
  );

/** Names where old keys are revoked: a person hitting the cap needs to know what to do next. */
export const tooManyKeys = (max: number) =>
  new StoreError(
    'too-many-keys',
    `this wallet already has ${max} active API keys on this relay; revoke old ones first: in the app under Settings → API keys ` +
      "(a device's own key goes with the device, under Settings → Devices), with the client CLI's `keys` and `revoke-key <id>`, " +
      'or DELETE /api/v1/me/keys/{id} with one of its keys',
  );

export const tooManyTokens = (max: number) =>
  new StoreError(
    'too-many-tokens',
    `this group already has ${max} live bot tokens, the most a group may have; revoke one it no longer needs first`,
  );

export const tooManyEntries = (list: 'allow' | 'block', max: number) =>
  new StoreError(
    'too-many-entries',
    `your ${list === 'allow' ? 'allow' : 'block'} list already holds ${max} addresses, the most this relay keeps; remove some first`,
  );

export const requestsFull = (to: string, index: number) =>
  new StoreError(
    'requests-full',
    `${to} has as many contact requests from strangers waiting on this relay as it keeps for them; nothing was sent, try again after they have caught up`,
    index,
  );
