/** Argument schemas that several command groups share, and the helper that pairs a schema with its result type. */
import { Type, type TSchema } from 'typebox';
import { BACKUP_NAME_PATTERN } from '../backup/backup.js';
import { ADDRESS_PATTERN, CONVERSATION_ID_PATTERN } from '../identity-patterns.js';

export const Address = Type.String({ pattern: ADDRESS_PATTERN });
export const Recipient = Type.String({ minLength: 2, maxLength: 64, description: '0x address or @handle' });
export const ConvId = Type.String({ pattern: CONVERSATION_ID_PATTERN });
export const Uuid = Type.String({ pattern: '^[0-9a-f-]{36}$' });
export const Passphrase = Type.String({ minLength: 0, maxLength: 1024 });
export const NoArgs = Type.Object({}, { additionalProperties: false });
export const BackupName = Type.String({ pattern: BACKUP_NAME_PATTERN });

/**
 * A command of the contract: the schema checks its arguments at the doorway; `result` only
 * carries the answer's type (no value is ever set), read back by ../ipc.ts's CommandResult.
 */
export interface Command<A extends TSchema, R> {
  args: A;
  result?: R;
}

/** `cmd<Result>()(argsSchema)`: the schema checks arguments at the doorway; Result types the answer. */
export function cmd<R>() {
  return <A extends TSchema>(args: A): Command<A, R> => ({ args });
}
