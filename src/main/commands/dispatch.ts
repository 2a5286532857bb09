/**
 * The one place a command from the renderer becomes a call: the name must be the contract's,
 * the arguments must pass the contract's schema, and whatever happens comes back as
 * `{ ok, value } | { ok: false, error: { code, message } }` with a plain-language message,
 * never a stack trace. Used by Electron's doorway and by web mode's socket alike.
 */
import { Compile } from 'typebox/compile';
import { commands, type CommandName, type IpcResult } from '../../shared/ipc.js';
import type { Handlers } from './handler-types.js';
import { toIpcError, UNKNOWN_COMMAND } from '../../shared/plain-errors.js';

type Validator = ReturnType<typeof Compile>;
/** compiled on a command's first call: compiling all of them was a tenth of the app's start-up */
const validators = new Map<string, Validator>();

function validatorOf(name: CommandName): Validator {
  let v = validators.get(name);
  if (!v) validators.set(name, (v = Compile(commands[name].args)));
  return v;
}

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(commands, name);
}

export async function dispatch(handlers: Handlers, name: unknown, args: unknown): Promise<IpcResult<unknown>> {
  if (!isCommandName(name)) return { ok: false, error: { code: 'unknown-command', message: UNKNOWN_COMMAND } };
  const validator = validatorOf(name);
  // Arguments are checked as sent; nothing is coerced or defaulted.
  if (!validator.Check(args))
    return { ok: false, error: { code: 'bad-arguments', message: describeInvalid(validator, args) } };
  try {
    const handler = handlers[name] as (a: unknown) => Promise<unknown>;
    const value = await handler(args);
    return { ok: true, value: value === undefined ? null : value };
  } catch (e) {
    const error = toIpcError(e, name);
    if (error.code === 'internal') console.error(`[${name}]`, e);
    return { ok: false, error };
  }
}

function describeInvalid(validator: Validator, args: unknown): string {
  const first = [...validator.Errors(args)].find((e) => e.keyword !== 'boolean') ?? [...validator.Errors(args)][0];
  if (!first) return 'Those values are not valid.';
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return field ? `“${field}” is not valid: ${first.message}.` : `Those values are not valid: ${first.message}.`;
}
