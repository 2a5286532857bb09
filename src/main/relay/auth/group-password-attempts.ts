/**
 * Guessing a group's password is slowed per group, whoever guesses. The rate limit counts
 * requests per credential, and a wallet can mint keys (and anyone can make wallets), so a
 * budget per caller would let guesses multiply with keys; the group is what is attacked. After
 * FREE_TRIES wrong passwords for one group, its join answers 429 `too-many-attempts` with
 * Retry-After, without looking at the password, for 30 s, then twice as long after each further
 * wrong one, up to 15 minutes. A right password clears the count. Guesses in flight count too,
 * so a burst sent at once gets no more tries than one after the other.
 *
 * The cost, said plainly: while a group is held, its members-to-be wait too, whatever they
 * type. The count lives in this process: on a cluster each node keeps its own (docs/protocol.md).
 */
import { groupPasswordMatches } from './group-password.js';
import { forbidden, HttpError } from '../http/errors.js';

export const FREE_TRIES = 5;
const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 15 * 60_000;
/** a group left alone this long starts afresh */
const FORGET_AFTER_MS = 24 * 60 * 60_000;

interface GroupTries {
  failures: number;
  inFlight: number;
  /** no guess is looked at before this time */
  heldUntil: number;
  lastFailureAt: number;
}

/** How long a group is held after its `failures`-th wrong password. */
export function holdMs(failures: number): number {
  if (failures < FREE_TRIES) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** Math.min(failures - FREE_TRIES, 16), LONGEST_WAIT_MS);
}

export class GroupPasswordAttempts {
  private readonly groups = new Map<string, GroupTries>();

  /**
   * Checks `password` against `hash` for `groupId`, or refuses to: resolves when it matches,
   * throws 403 `wrong-password` when it does not, and 429 `too-many-attempts` (Retry-After set
   * on `reply`) while the group is held.
   */
  async check(
    groupId: string,
    password: string,
    hash: string,
    now: number,
    reply: { header(name: string, value: string): unknown },
  ): Promise<void> {
    const wait = this.begin(groupId, now);
    if (wait !== null) {
      reply.header('Retry-After', String(wait));
      throw new HttpError(429, `too many wrong passwords for this group; try again in ${wait} s`, 'too-many-attempts');
    }
    let ok = false;
    try {
      ok = await groupPasswordMatches(password, hash);
    } finally {
      this.settle(groupId, ok, now);
    }
    if (!ok) throw forbidden('wrong group password', 'wrong-password');
  }

  /** Seconds to wait, or null when a guess may go ahead (then it is in flight until settled). */
  private begin(groupId: string, now: number): number | null {
    let g = this.groups.get(groupId);
    if (g && g.inFlight === 0 && now - g.lastFailureAt > FORGET_AFTER_MS) g = undefined;
    if (!g) {
      g = { failures: 0, inFlight: 0, heldUntil: 0, lastFailureAt: now };
      this.groups.set(groupId, g);
    }
    if (now < g.heldUntil) return Math.ceil((g.heldUntil - now) / 1000);
    // the guesses in flight could still reach the hold: the next waits for them
    if (g.inFlight > 0 && g.failures + g.inFlight >= FREE_TRIES)
      return Math.ceil(holdMs(g.failures + g.inFlight) / 1000);
    g.inFlight++;
    return null;
  }

  private settle(groupId: string, ok: boolean, now: number): void {
    const g = this.groups.get(groupId);
    if (!g) return;
    g.inFlight--;
    if (ok) {
      g.failures = 0;
      g.heldUntil = 0;
    } else {
      g.failures++;
      g.lastFailureAt = now;
      g.heldUntil = Math.max(g.heldUntil, now + holdMs(g.failures));
    }
    if (g.failures === 0 && g.inFlight === 0) this.groups.delete(groupId);
  }
}
