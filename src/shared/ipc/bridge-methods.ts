/**
 * The one shape of `window.messenger`, shared by Electron's preload and the web-mode bridge:
 * one named method per command of the contract. The transport behind it is the caller's.
 */
import type { CommandArgs, CommandName, CommandResult, EventName, Events, MessengerBridge } from '../ipc.js';

export type Invoke = <K extends CommandName>(name: K, args: CommandArgs<K>) => Promise<CommandResult<K>>;
export type Subscribe = <E extends EventName>(event: E, fn: (payload: Events[E]) => void) => () => void;

/**
 * The contract's command names, spelled out because the preload may not load the schemas
 * (ipc.ts checks at compile time that this list and its `commands` have the same names).
 */
export const commandNames = [
  'app.status',
  'wallet.create',
  'wallet.importMnemonic',
  'wallet.importPrivateKey',
  'wallet.unlock',
  'wallet.recoveryPhrase',
  'wallet.confirmPhrase',
  'relay.connect',
  'profile.claimHandle',
  'conversations.list',
  'conversations.open',
  'conversations.markRead',
  'messages.list',
  'messages.send',
  'messages.retry',
  'messages.edit',
  'messages.delete',
  'conversations.setTimer',
  'messages.search',
  'attachments.stage',
  'attachments.append',
  'attachments.send',
  'attachments.discard',
  'attachments.fetch',
  'attachments.save',
  'attachments.read',
  'requests.list',
  'requests.accept',
  'requests.decline',
  'requests.spam',
  'stakes.settings',
  'stakes.setRpcUrl',
  'stakes.list',
  'stakes.pay',
  'stakes.refund',
  'contacts.block',
  'contacts.unblock',
  'contacts.blocked',
  'contacts.handles',
  'contacts.safetyNumber',
  'contacts.verify',
  'contacts.trust',
  'directory.search',
  'groups.listPublic',
  'groups.listMine',
  'groups.get',
  'groups.create',
  'groups.join',
  'groups.leave',
  'groups.addMember',
  'groups.removeMember',
  'groups.listTokens',
  'groups.mintToken',
  'groups.revokeToken',
  'groups.addAdmin',
  'groups.removeAdmin',
  'invitations.list',
  'invitations.accept',
  'invitations.decline',
  'devices.list',
  'devices.revoke',
  'history.send',
  'history.decline',
  'apiKeys.list',
  'apiKeys.mint',
  'apiKeys.revoke',
  'policy.get',
  'policy.set',
  'relay.status',
  'relay.setLocal',
  'relay.shareOnLan',
  'myRelay.invites',
  'myRelay.createInvite',
  'myRelay.revokeInvite',
  'myRelay.users',
  'myRelay.suspend',
  'myRelay.unsuspend',
  'myRelay.deleteAccount',
  'myRelay.stats',
  'sync.now',
  'app.visibility',
  'conversations.typing',
  'conversations.mute',
  'preferences.get',
  'preferences.set',
  'backup.export',
  'backup.download',
  'backup.upload',
  'backup.restore',
  'notifications.show',
  'links.openExternal',
] as const;

/** `window.messenger`: a method per command that hands the name and arguments to `invoke`. */
export function bridgeMethods(invoke: Invoke, subscribe: Subscribe): MessengerBridge {
  const methods: Record<string, unknown> = { on: subscribe };
  for (const name of commandNames) methods[name] = (args: never) => invoke(name, args);
  return methods as MessengerBridge;
}

/**
 * Errors cross contextBridge as plain Errors (custom properties are dropped), so the code
 * rides in the message as `code: message`; the renderer's bridge splits it again.
 */
/** Between the sentence and its technical detail: a control character no sentence holds. */
const DETAIL_SEP = '\u001f';

export function encodeBridgeError(error: { code: string; message: string; detail?: string }): string {
  return `${error.code}: ${error.message}${error.detail ? `${DETAIL_SEP}${error.detail}` : ''}`;
}

export function decodeBridgeError(text: string): { code: string; message: string; detail?: string } {
  const [head, detail] = text.split(DETAIL_SEP, 2);
  const m = /^([a-z0-9_.-]{2,40}): ([\s\S]*)$/.exec(head);
  const decoded = m ? { code: m[1], message: m[2] } : { code: 'error', message: head };
  return detail ? { ...decoded, detail } : decoded;
}
