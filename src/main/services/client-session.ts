/**
 * The messenger client as the app uses it: opened for one wallet on one relay, answering the
 * client commands of the contract and pushing its events. Adapts src/main/client's Messenger.
 */
import type { CommandName, EventName, Events } from '../../shared/ipc.js';
import type { Handler } from '../ipc/handler-types.js';
import { AppError } from '../ipc/plain-errors.js';
import type { VaultClient } from '../vault/vault-client.js';

/** Commands the client answers; the rest belong to AppServices. */
export type ClientCommand = Exclude<
  CommandName,
  'app.status' | 'wallet.create' | 'wallet.importMnemonic' | 'wallet.importPrivateKey' | 'wallet.unlock' | 'relay.connect' | 'profile.claimHandle' | 'relay.status' | 'relay.setLocal' | 'relay.shareOnLan' | 'links.openExternal'
>;
export type ClientHandlers = { [K in ClientCommand]: Handler<K> };

export interface ClientSessionParams {
  dataDir: string;
  vault: VaultClient;
  relayUrl: string;
  fingerprint: string | null;
  address: string;
  deviceKey: string;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
}

export interface ClientSession {
  readonly handlers: ClientHandlers;
  handle(): string | null;
  connection(): { connected: boolean; lastError: string | null };
  claimHandle(handle: string): Promise<void>;
  close(): Promise<void>;
}

export async function openClientSession(_p: ClientSessionParams): Promise<ClientSession> {
  throw new AppError('not-ready', 'The messenger client is not available in this build yet.');
}

/** Forwards each client command to the open session, or says plainly that there is none. */
export function clientHandlers(session: () => ClientSession): ClientHandlers {
  const h = <K extends ClientCommand>(k: K): Handler<K> => (args) => session().handlers[k](args);
  return {
    'conversations.list': h('conversations.list'),
    'conversations.open': h('conversations.open'),
    'conversations.markRead': h('conversations.markRead'),
    'messages.list': h('messages.list'),
    'messages.send': h('messages.send'),
    'messages.retry': h('messages.retry'),
    'requests.list': h('requests.list'),
    'requests.accept': h('requests.accept'),
    'requests.decline': h('requests.decline'),
    'contacts.block': h('contacts.block'),
    'contacts.unblock': h('contacts.unblock'),
    'directory.search': h('directory.search'),
    'groups.listPublic': h('groups.listPublic'),
    'groups.listMine': h('groups.listMine'),
    'groups.get': h('groups.get'),
    'groups.create': h('groups.create'),
    'groups.join': h('groups.join'),
    'groups.leave': h('groups.leave'),
    'groups.addMember': h('groups.addMember'),
    'groups.removeMember': h('groups.removeMember'),
    'groups.listTokens': h('groups.listTokens'),
    'groups.mintToken': h('groups.mintToken'),
    'groups.revokeToken': h('groups.revokeToken'),
    'devices.list': h('devices.list'),
    'devices.revoke': h('devices.revoke'),
    'apiKeys.list': h('apiKeys.list'),
    'apiKeys.mint': h('apiKeys.mint'),
    'apiKeys.revoke': h('apiKeys.revoke'),
    'policy.get': h('policy.get'),
    'policy.set': h('policy.set'),
    'sync.now': h('sync.now'),
  };
}
