/**
 * The one shape of `window.messenger`, shared by Electron's preload and the web-mode bridge:
 * one named method per command of the contract, written out so that `satisfies` checks both
 * directions (a command added to ipc.ts without a method here fails to compile, and so does
 * a method the contract does not know). The transport behind it is the caller's.
 */
import type { CommandArgs, CommandName, CommandResult, EventName, Events, MessengerBridge } from './ipc.js';

export type Invoke = <K extends CommandName>(name: K, args: CommandArgs<K>) => Promise<CommandResult<K>>;
export type Subscribe = <E extends EventName>(event: E, fn: (payload: Events[E]) => void) => () => void;

export function bridgeMethods(invoke: Invoke, subscribe: Subscribe) {
  return {
    'app.status': (a) => invoke('app.status', a),
    'wallet.create': (a) => invoke('wallet.create', a),
    'wallet.importMnemonic': (a) => invoke('wallet.importMnemonic', a),
    'wallet.importPrivateKey': (a) => invoke('wallet.importPrivateKey', a),
    'wallet.unlock': (a) => invoke('wallet.unlock', a),
    'relay.connect': (a) => invoke('relay.connect', a),
    'profile.claimHandle': (a) => invoke('profile.claimHandle', a),
    'conversations.list': (a) => invoke('conversations.list', a),
    'conversations.open': (a) => invoke('conversations.open', a),
    'conversations.markRead': (a) => invoke('conversations.markRead', a),
    'messages.list': (a) => invoke('messages.list', a),
    'messages.send': (a) => invoke('messages.send', a),
    'messages.retry': (a) => invoke('messages.retry', a),
    'requests.list': (a) => invoke('requests.list', a),
    'requests.accept': (a) => invoke('requests.accept', a),
    'requests.decline': (a) => invoke('requests.decline', a),
    'requests.spam': (a) => invoke('requests.spam', a),
    'stakes.settings': (a) => invoke('stakes.settings', a),
    'stakes.setRpcUrl': (a) => invoke('stakes.setRpcUrl', a),
    'stakes.list': (a) => invoke('stakes.list', a),
    'stakes.pay': (a) => invoke('stakes.pay', a),
    'stakes.refund': (a) => invoke('stakes.refund', a),
    'contacts.block': (a) => invoke('contacts.block', a),
    'contacts.unblock': (a) => invoke('contacts.unblock', a),
    'directory.search': (a) => invoke('directory.search', a),
    'groups.listPublic': (a) => invoke('groups.listPublic', a),
    'groups.listMine': (a) => invoke('groups.listMine', a),
    'groups.get': (a) => invoke('groups.get', a),
    'groups.create': (a) => invoke('groups.create', a),
    'groups.join': (a) => invoke('groups.join', a),
    'groups.leave': (a) => invoke('groups.leave', a),
    'groups.addMember': (a) => invoke('groups.addMember', a),
    'groups.removeMember': (a) => invoke('groups.removeMember', a),
    'groups.listTokens': (a) => invoke('groups.listTokens', a),
    'groups.mintToken': (a) => invoke('groups.mintToken', a),
    'groups.revokeToken': (a) => invoke('groups.revokeToken', a),
    'groups.addAdmin': (a) => invoke('groups.addAdmin', a),
    'groups.removeAdmin': (a) => invoke('groups.removeAdmin', a),
    'invitations.list': (a) => invoke('invitations.list', a),
    'invitations.accept': (a) => invoke('invitations.accept', a),
    'invitations.decline': (a) => invoke('invitations.decline', a),
    'devices.list': (a) => invoke('devices.list', a),
    'devices.revoke': (a) => invoke('devices.revoke', a),
    'apiKeys.list': (a) => invoke('apiKeys.list', a),
    'apiKeys.mint': (a) => invoke('apiKeys.mint', a),
    'apiKeys.revoke': (a) => invoke('apiKeys.revoke', a),
    'policy.get': (a) => invoke('policy.get', a),
    'policy.set': (a) => invoke('policy.set', a),
    'relay.status': (a) => invoke('relay.status', a),
    'relay.setLocal': (a) => invoke('relay.setLocal', a),
    'relay.shareOnLan': (a) => invoke('relay.shareOnLan', a),
    'sync.now': (a) => invoke('sync.now', a),
    'links.openExternal': (a) => invoke('links.openExternal', a),
    on: subscribe,
  } satisfies MessengerBridge;
}

/**
 * Errors cross contextBridge as plain Errors (custom properties are dropped), so the code
 * rides in the message as `code: message`; the renderer's bridge splits it again.
 */
export function encodeBridgeError(error: { code: string; message: string }): string {
  return `${error.code}: ${error.message}`;
}

export function decodeBridgeError(text: string): { code: string; message: string } {
  const m = /^([a-z0-9_.-]{2,40}): ([\s\S]*)$/.exec(text);
  return m ? { code: m[1], message: m[2] } : { code: 'error', message: text };
}
