/**
 * The main process's fixed error sentences (src/shared/plain-errors.ts) in the catalogue, so a
 * failure reads in the person's language. Main sends `{ code, message }` with the English
 * sentence; the renderer shows this catalogue's message for that sentence, and the English
 * itself for anything not here (a relay's own words, a detail). A test keeps both in step.
 */
import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import { DescribedError } from './described-error.js';
import { isRecipientProblem, recipientProblemText } from './recipient-problems.js';

export const errorMessages = defineMessages({
  badPassphrase: {
    id: 'error.badPassphrase',
    defaultMessage: 'That passphrase is not right.',
    description: 'Error shown to the person: badPassphrase.',
  },
  noPassphrase: {
    id: 'error.noPassphrase',
    defaultMessage: 'Enter your passphrase.',
    description: 'Error shown to the person: noPassphrase.',
  },
  passphraseRequired: {
    id: 'error.passphraseRequired',
    defaultMessage: 'Enter your passphrase to see the recovery phrase.',
    description: 'Error shown to the person: the recovery phrase is shown only after the passphrase is typed.',
  },
  noWallet: {
    id: 'error.noWallet',
    defaultMessage: 'There is no wallet on this computer yet.',
    description: 'Error shown to the person: noWallet.',
  },
  walletExists: {
    id: 'error.walletExists',
    defaultMessage: 'This computer already has a wallet.',
    description: 'Error shown to the person: walletExists.',
  },
  badMnemonic: {
    id: 'error.badMnemonic',
    defaultMessage: 'That recovery phrase is not valid. Check the words and their order.',
    description: 'Error shown to the person: badMnemonic.',
  },
  badPrivateKey: {
    id: 'error.badPrivateKey',
    defaultMessage: 'That private key is not valid. It is 64 hexadecimal characters, optionally starting with 0x.',
    description: 'Error shown to the person: badPrivateKey.',
  },
  locked: {
    id: 'error.locked',
    defaultMessage: 'Unlock the app first.',
    description: 'Error shown to the person: locked.',
  },
  codecFailed: {
    id: 'error.codecFailed',
    defaultMessage:
      "The system keychain could not open your wallet. Check that you're signed in to your desktop session.",
    description: 'Error shown to the person: codecFailed.',
  },
  corruptVault: {
    id: 'error.corruptVault',
    defaultMessage: 'The wallet file on this computer is damaged. Restore it from your recovery phrase.',
    description: 'Error shown to the person: corruptVault.',
  },
  noRelay: {
    id: 'error.noRelay',
    defaultMessage: 'Choose a relay first.',
    description: 'Error shown to the person: noRelay.',
  },
  notSignedIn: {
    id: 'error.notSignedIn',
    defaultMessage: 'Not signed in to the relay yet. Check your connection.',
    description: 'Error shown to the person: notSignedIn.',
  },
  timeout: {
    id: 'error.timeout',
    defaultMessage: 'That took too long. Try again.',
    description: 'Error shown to the person: timeout.',
  },
  workerCrashed: {
    id: 'error.workerCrashed',
    defaultMessage: 'The key vault restarted. Unlock again and retry.',
    description: 'Error shown to the person: workerCrashed.',
  },
  pinMismatch: {
    id: 'error.pinMismatch',
    defaultMessage:
      "That relay's certificate does not match the fingerprint. Check the fingerprint with whoever shares the relay.",
    description: 'Error shown to the person: pinMismatch.',
  },
  profileInUse: {
    id: 'error.profileInUse',
    defaultMessage: 'This profile is already open in another window of the app.',
    description: 'Error shown to the person: profileInUse.',
  },
  entitlementRequired: {
    id: 'error.entitlementRequired',
    defaultMessage: 'This relay has not enabled developer API keys for your account. Ask its operator.',
    description: 'Error shown to the person: entitlementRequired.',
  },
  recipientFull: {
    id: 'error.recipientFull',
    defaultMessage: 'Not delivered: their inbox on the relay is full. Try again later.',
    description: 'Error shown to the person: recipientFull.',
  },
  tooManyRequestsPending: {
    id: 'error.tooManyRequestsPending',
    defaultMessage:
      'Not delivered: too many of your contact requests and group invitations to them are still unanswered.',
    description: 'Error shown to the person: tooManyRequestsPending.',
  },
  requestsFull: {
    id: 'error.requestsFull',
    defaultMessage: 'Not delivered: they have too many contact requests waiting on the relay. Try again later.',
    description: 'Error shown to the person: requestsFull.',
  },
  storageFull: {
    id: 'error.storageFull',
    defaultMessage: 'The relay is low on disk space and refuses new messages and changes for now. Try again later.',
    description: 'Error shown to the person: storageFull.',
  },
  tooManyGroups: {
    id: 'error.tooManyGroups',
    defaultMessage: 'You have created as many groups as this relay allows.',
    description: 'Error shown to the person: tooManyGroups.',
  },
  tooManyKeys: {
    id: 'error.tooManyKeys',
    defaultMessage:
      'This wallet has as many API keys as this relay allows. Revoke old ones in Settings → API keys (or revoke devices you no longer use in Settings → Devices), then try again.',
    description: 'Error shown to the person: tooManyKeys.',
  },
  inviteRequired: {
    id: 'error.inviteRequired',
    defaultMessage:
      'This relay lets people join by invitation only. Ask the relay’s owner for an invite, then join with the link or code they give you.',
    description: 'Error shown to the person: inviteRequired.',
  },
  inviteInvalid: {
    id: 'error.inviteInvalid',
    defaultMessage:
      'That invite no longer works: it was used up, it expired or the relay’s owner withdrew it. Ask them for a new one.',
    description: 'Error shown to the person: inviteInvalid.',
  },
  registrationClosed: {
    id: 'error.registrationClosed',
    defaultMessage: 'This relay is not taking anyone new. Ask the relay’s owner whether they can let you in.',
    description: 'Error shown to the person: registrationClosed.',
  },
  suspended: {
    id: 'error.suspended',
    defaultMessage:
      'The relay’s owner has suspended your account on this relay, so you cannot sign in or send there. Ask them if you think this is a mistake.',
    description: 'Error shown to the person: suspended.',
  },
  localRelayOff: {
    id: 'error.localRelayOff',
    defaultMessage: 'The relay on this computer is not running. Turn it on in Settings → Relay to manage it.',
    description: 'Error shown to the person: localRelayOff.',
  },
  stakeRequired: {
    id: 'error.stakeRequired',
    defaultMessage:
      'They ask strangers for a refundable stake first. Send them a staked contact request; once it is paid, you can invite them.',
    description: 'Error shown to the person: stakeRequired.',
  },
  backupWrongPassphrase: {
    id: 'error.backupWrongPassphrase',
    defaultMessage: 'That passphrase does not open this backup. Nothing was changed.',
    description: 'Error shown to the person: backupWrongPassphrase.',
  },
  backupDamaged: {
    id: 'error.backupDamaged',
    defaultMessage: 'This backup file is damaged or was altered, so it cannot be restored. Nothing was changed.',
    description: 'Error shown to the person: backupDamaged.',
  },
  backupOtherWallet: {
    id: 'error.backupOtherWallet',
    defaultMessage: 'This backup belongs to another wallet. Import that wallet’s recovery phrase to restore it.',
    description: 'Error shown to the person: backupOtherWallet.',
  },
  backupTooNew: {
    id: 'error.backupTooNew',
    defaultMessage: 'This backup was made by a newer version of the app. Update the app, then restore it.',
    description: 'Error shown to the person: backupTooNew.',
  },
  backupNotNewProfile: {
    id: 'error.backupNotNewProfile',
    defaultMessage: 'A backup can be restored only into a new profile, before any conversation.',
    description: 'Error shown to the person: backupNotNewProfile.',
  },
  profileClaimHandle_badHandle: {
    id: 'error.profileClaimHandle.badHandle',
    defaultMessage: 'Handles are 3–32 letters, digits or underscores.',
    description: 'Error shown when the relay refuses the command profileClaimHandle (badHandle).',
  },
  profileClaimHandle_handleTaken: {
    id: 'error.profileClaimHandle.handleTaken',
    defaultMessage: 'That handle is already taken. Try another.',
    description: 'Error shown when the relay refuses the command profileClaimHandle (handleTaken).',
  },
  groupsJoin_wrongPassword: {
    id: 'error.groupsJoin.wrongPassword',
    defaultMessage: 'That group password is not right.',
    description: 'Error shown when the relay refuses the command groupsJoin (wrongPassword).',
  },
  groupsJoin_notFound: {
    id: 'error.groupsJoin.notFound',
    defaultMessage: 'That group no longer exists.',
    description: 'Error shown when the relay refuses the command groupsJoin (notFound).',
  },
  groupsAddMember_forbidden: {
    id: 'error.groupsAddMember.forbidden',
    defaultMessage:
      'Only the group’s creator or an admin can add members, and only people who accept invitations from you.',
    description: 'Error shown when the relay refuses the command groupsAddMember (forbidden).',
  },
  groupsAddMember_unknownRecipient: {
    id: 'error.groupsAddMember.unknownRecipient',
    defaultMessage: 'Nobody with that handle or address is on this relay.',
    description: 'Error shown when the relay refuses the command groupsAddMember (unknownRecipient).',
  },
  groupsAddMember_alreadyMember: {
    id: 'error.groupsAddMember.alreadyMember',
    defaultMessage: 'They are already a member.',
    description: 'Error shown when the relay refuses the command groupsAddMember (alreadyMember).',
  },
  groupsRemoveMember_forbidden: {
    id: 'error.groupsRemoveMember.forbidden',
    defaultMessage:
      'Only the group’s creator or an admin can remove members, and admins cannot remove the creator or other admins.',
    description: 'Error shown when the relay refuses the command groupsRemoveMember (forbidden).',
  },
  groupsAddAdmin_forbidden: {
    id: 'error.groupsAddAdmin.forbidden',
    defaultMessage: 'Only the group’s creator can name admins.',
    description: 'Error shown when the relay refuses the command groupsAddAdmin (forbidden).',
  },
  groupsAddAdmin_notAMember: {
    id: 'error.groupsAddAdmin.notAMember',
    defaultMessage: 'Only members can be admins.',
    description: 'Error shown when the relay refuses the command groupsAddAdmin (notAMember).',
  },
  groupsRemoveAdmin_forbidden: {
    id: 'error.groupsRemoveAdmin.forbidden',
    defaultMessage: 'Only the group’s creator can take admin rights back.',
    description: 'Error shown when the relay refuses the command groupsRemoveAdmin (forbidden).',
  },
  invitationsAccept_noInvitation: {
    id: 'error.invitationsAccept.noInvitation',
    defaultMessage: 'That invitation is no longer open.',
    description: 'Error shown when the relay refuses the command invitationsAccept (noInvitation).',
  },
  groupsLeave_creatorCannotLeave: {
    id: 'error.groupsLeave.creatorCannotLeave',
    defaultMessage: 'As the creator you can leave only once everyone else has left.',
    description: 'Error shown when the relay refuses the command groupsLeave (creatorCannotLeave).',
  },
  groupsMintToken_forbidden: {
    id: 'error.groupsMintToken.forbidden',
    defaultMessage: 'Only the group’s creator or an admin can mint bot tokens.',
    description: 'Error shown when the relay refuses the command groupsMintToken (forbidden).',
  },
  relayConnect_notARelay: {
    id: 'error.relayConnect.notARelay',
    defaultMessage: 'That address does not answer like a relay. Check it.',
    description: 'Error shown when the relay refuses the command relayConnect (notARelay).',
  },
  signedOut: {
    id: 'error.signedOut',
    defaultMessage: 'The relay no longer accepts this device’s key. Reconnect to the relay in Settings.',
    description: 'Error shown to the person: signedOut.',
  },
  forbidden: {
    id: 'error.forbidden',
    defaultMessage: 'You’re not allowed to do that.',
    description: 'Error shown to the person: forbidden.',
  },
  notFound: {
    id: 'error.notFound',
    defaultMessage: 'That could not be found. It may have been removed.',
    description: 'Error shown to the person: notFound.',
  },
  tooLarge: {
    id: 'error.tooLarge',
    defaultMessage: 'That is too large to send.',
    description: 'Error shown to the person: tooLarge.',
  },
  rateLimited: {
    id: 'error.rateLimited',
    defaultMessage: 'Too many requests at once. Wait a moment and try again.',
    description: 'Error shown to the person: rateLimited.',
  },
  network: {
    id: 'error.network',
    defaultMessage: "Can't reach the relay. Check its address, or whether it is running.",
    description: 'Error shown to the person: network.',
  },
  selfSigned: {
    id: 'error.selfSigned',
    defaultMessage:
      'This relay uses a self-signed certificate, so it must be pinned: enter the fingerprint shown by the computer that runs it (choose “A relay on my network”, or pass --fingerprint).',
    description: 'Error shown to the person: selfSigned.',
  },
  relayRefused: {
    id: 'error.relayRefused',
    defaultMessage: 'The relay refused that.',
    description: 'Error shown to the person: relayRefused.',
  },
  relayProblem: {
    id: 'error.relayProblem',
    defaultMessage: 'The relay had a problem. Try again in a moment.',
    description: 'Error shown to the person: relayProblem.',
  },
  internal: {
    id: 'error.internal',
    defaultMessage: 'Something went wrong. Try again; if it keeps happening, restart the app.',
    description: 'Error shown to the person: internal.',
  },
  unknownCommand: {
    id: 'error.unknownCommand',
    defaultMessage: 'The app does not know that command.',
    description: 'Error shown to the person: unknownCommand.',
  },
});

const own = defineMessages({
  noBridge: {
    id: 'error.noBridge',
    defaultMessage: 'This page must be opened from the link the app printed.',
    description: 'Error when the web page was opened without the launch link the app printed in the terminal.',
  },
});

export function noBridgeMessage(intl: IntlShape): string {
  return intl.formatMessage(own.noBridge);
}

/** The web bridge's own sentences (web-bridge.ts), which reach the screen the same way. */
const webBridgeMessages = defineMessages({
  disconnected: {
    id: 'error.web.disconnected',
    defaultMessage: 'Could not reach the app. Is it still running?',
    description: 'Error when the web page cannot reach the app process.',
  },
  refused: {
    id: 'error.web.refused',
    defaultMessage: 'The app refused this link.',
    description: 'Error when the app refused the launch link of the page.',
  },
  staleTab: {
    id: 'error.web.staleTab',
    defaultMessage:
      'The app was restarted since this tab was opened, so the link this tab used no longer works. Open the new link the app printed when it started (pasting it into this tab works).',
    description: 'Error when the browser tab belongs to an earlier run of the app.',
  },
  lost: {
    id: 'error.web.lost',
    defaultMessage: 'Lost the connection to the app. Reconnecting…',
    description: 'Error while the page reconnects to the app process.',
  },
});

/** Sentences from shared/relay-address.ts that carry nothing typed (the others quote the input and stay English). */
const addressMessages = defineMessages({
  enterUrl: {
    id: 'error.address.enterUrl',
    defaultMessage: 'Enter the relay’s address, like https://relay.example.org.',
    description: 'Hint under an empty relay address field.',
  },
  queryFragment: {
    id: 'error.address.queryFragment',
    defaultMessage: 'A relay address has no ?query or #fragment: give just its scheme, host and port.',
    description: 'Error for a relay address with a query or fragment.',
  },
  enterFingerprint: {
    id: 'error.address.enterFingerprint',
    defaultMessage: 'Enter the fingerprint shown by the computer that shares the relay.',
    description: 'Hint under an empty fingerprint field.',
  },
  fingerprintDigits: {
    id: 'error.address.fingerprintDigits',
    defaultMessage: 'A fingerprint has only hex digits (0-9, A-F), optionally separated by colons.',
    description: 'Error for a fingerprint with other characters.',
  },
});

const byEnglish = new Map<string, MessageDescriptor>(
  [
    ...Object.values(errorMessages),
    ...Object.values(webBridgeMessages),
    ...Object.values(addressMessages),
    own.noBridge,
  ].map((m) => [m.defaultMessage as string, m]),
);

/** An error sentence from main in the active language; unknown sentences stay as they came. */
export function translateError(intl: IntlShape, message: string): string {
  const descriptor = byEnglish.get(message);
  return descriptor ? intl.formatMessage(descriptor) : message;
}

/**
 * Anything thrown, as the sentence to show: the page's own DescribedError from the catalogue,
 * main's (already translated at the bridge) and any other as it came.
 */
export function errorText(intl: IntlShape, e: unknown): string {
  if (e instanceof DescribedError) return intl.formatMessage(e.descriptor, e.values);
  if (isRecipientProblem(e)) return recipientProblemText(intl, e);
  return e instanceof Error ? translateError(intl, e.message) : String(e);
}
