/** Argument checks and a send's outcome in one word, shared by the client CLI's command files (cli*.ts). */
import { ADDRESS } from '../../../shared/identity-patterns.js';
import type { SendOutcome } from '../core/outbox.js';
import { UsageError } from './cli-support.js';

/** What the relay did with the message, in one word: `blocked` and `stake-required` are not deliveries. */
export function sendState(o: SendOutcome): string {
  if (o.state !== 'sent') return o.state;
  if (o.routed === 'blocked') return 'blocked';
  if (o.routed === 'stake-gate') return 'stake-required';
  return 'sent';
}

/** A send that reached nobody exits 1 (the JSON line above says why); one still queued exits 0. */
export function exitUnlessDelivered(o: SendOutcome): void {
  const state = sendState(o);
  if (state === 'failed' || state === 'blocked' || state === 'stake-required') process.exitCode = 1;
}

export function address(a: string): string {
  if (!ADDRESS.test(a)) throw new UsageError(`"${a}" is not an address (0x + 40 hex)`);
  return a.toLowerCase();
}

export function need(args: string[], n: number, what: string): void {
  if (args.length < n) throw new UsageError(`missing argument: ${what}`);
}
