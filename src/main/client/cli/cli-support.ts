/**
 * What the two headless entries (cli.ts, bot-cli.ts) share: the passphrase rule, JSON
 * output, and errors as one JSON line on stderr with exit code 1 (2 for bad usage).
 */
import { existsSync } from 'node:fs';
import { toIpcError } from '../../../shared/plain-errors.js';
import { MessengerError } from '../core/messenger-error.js';

export const DEFAULT_PASSPHRASE_ENV = 'RELAY_PASSPHRASE';

export class UsageError extends Error {}

/**
 * The profile passphrase from the named environment variable. Unset means an empty
 * passphrase: the profile is still encrypted, and we say so on stderr (once per process).
 */
export function passphraseFromEnv(varName: string | undefined, prog: string): string {
  const name = varName ?? DEFAULT_PASSPHRASE_ENV;
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`${prog}: ${name} is not set; the profile's secrets are encrypted with an empty passphrase\n`);
    return '';
  }
  return value;
}

/**
 * Only `init` makes a profile. Any other command on a folder that is not there would leave an
 * empty profile behind (a typo in --profile, say) and then fail on it for a less clear reason.
 */
export function requireProfile(dir: string, command: string): void {
  if (command !== 'init' && !existsSync(dir)) {
    throw new MessengerError(
      'no-profile',
      `there is no profile at ${dir}; run init first (only init creates a profile)`,
    );
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export function fail(prog: string, e: unknown, usage?: string): never {
  if (e instanceof UsageError) {
    process.stderr.write(`${JSON.stringify({ error: e.message, code: 'usage' })}\n${usage ? usage : ''}`);
    process.exit(2);
  }
  const err = toIpcError(e);
  // internal errors keep their text for the operator; stack traces stay out of the JSON
  const message = err.code === 'internal' && e instanceof Error ? e.message : err.message;
  process.stderr.write(`${JSON.stringify({ error: message, code: err.code })}\n`);
  if (err.code === 'internal' && process.env.RELAY_CLIENT_DEBUG)
    process.stderr.write(`${prog}: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(1);
}
