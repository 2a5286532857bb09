/**
 * What the Messenger's feature modules (groups/, contacts/, account/, conversations/ …) work
 * through: the local store, the events, who we are, and the signed-in relay. The Messenger
 * builds one and hands it to each; a feature never reaches into another's state.
 */
import type { ConversationId } from '../../../shared/domain.js';
import type { CommandArgs, CommandName, CommandResult, EventName, Events } from '../../../shared/ipc.js';
import type { RelayApi } from '../network/relay-api.js';
import type { LocalStore } from '../store/local-store.js';

/** The commands the Messenger serves (the shell owns the rest). */
export type ClientCommand = Exclude<
  CommandName,
  | 'relay.setLocal'
  | 'relay.shareOnLan'
  | 'links.openExternal'
  | 'notifications.show'
  | `attachments.${string}`
  | `myRelay.${string}`
>;
export type ClientHandlers = { [K in ClientCommand]: (args: CommandArgs<K>) => Promise<CommandResult<K>> };
/** One feature's part of the command table; the Messenger's `handlers()` is the merge of them. */
export type FeatureHandlers<K extends ClientCommand> = Pick<ClientHandlers, K>;

export interface FeatureContext {
  store: LocalStore;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  emitConversation(id: ConversationId): void;
  /** the wallet address and device key; throws before a wallet exists */
  me(): { address: string; deviceKey: string };
  /** the API client, once the wallet is open and signed in; throws otherwise */
  ready(): RelayApi;
  nowMs(): number;
}
