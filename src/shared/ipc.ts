/**
 * The one contract between the renderer and main: every command with its argument schema
 * (checked at the doorway) and result type, and every event main pushes. Electron's preload
 * and the web-mode WebSocket bridge both expose exactly these keys.
 */
import type { Static, TSchema } from 'typebox';
import type { Command } from './ipc/args.js';
import { accountCommands } from './ipc/account-commands.js';
import { conversationCommands } from './ipc/conversation-commands.js';
import { peopleCommands } from './ipc/people-commands.js';
import { groupCommands } from './ipc/group-commands.js';
import { myRelayCommands } from './ipc/my-relay-commands.js';
import type { EventName, Events } from './ipc/events.js';
import type { GroupInfo } from './domain.js';
import type { commandNames } from './ipc/bridge-methods.js';

export { eventNames, type EventName, type Events } from './ipc/events.js';

export const commands = {
  ...accountCommands,
  ...conversationCommands,
  ...peopleCommands,
  ...groupCommands,
  ...myRelayCommands,
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandArgs<K extends CommandName> = Static<Commands[K]['args']>;
export type CommandResult<K extends CommandName> = Commands[K] extends Command<TSchema, infer R> ? R : never;

/** Errors cross the doorway as codes and plain-language messages, never stack traces. */
export interface IpcError {
  code: string;
  message: string;
  /** the network's own words behind the sentence (`connect ECONNREFUSED …`), shown under "Details" */
  detail?: string;
}
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** One method per command, each taking its arguments and answering its result. */
export type BridgeCommands = {
  [K in CommandName]: (args: CommandArgs<K>) => Promise<CommandResult<K>>;
};

/** The object the preload (or the web bridge) exposes as `window.messenger`. */
export type MessengerBridge = BridgeCommands & {
  on<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void;
};

// The preload's list of names (bridge-methods.ts) is the contract's, neither more nor fewer.
type ListedCommand = (typeof commandNames)[number];
const _sameNames: [Exclude<CommandName, ListedCommand>, Exclude<ListedCommand, CommandName>] extends [never, never]
  ? true
  : never = true;
void _sameNames;

// Compile-time check that argument and result types are inferred (not unknown).
type _Check = CommandArgs<'messages.send'>['text'] extends string
  ? CommandResult<'groups.get'> extends GroupInfo
    ? unknown extends CommandResult<'groups.get'>
      ? never
      : true
    : never
  : never;
const _check: _Check = true;
void _check;
