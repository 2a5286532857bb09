import type { CommandArgs, CommandName, CommandResult } from '../../shared/ipc.js';

export type Handler<K extends CommandName> = (args: CommandArgs<K>) => Promise<CommandResult<K>>;

/** Every command of the contract has exactly one handler: a missing one fails to compile. */
export type Handlers = { [K in CommandName]: Handler<K> };
