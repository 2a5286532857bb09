/** The values of the moderation commands' arguments: entitlement names, invite codes and lifetimes. */
import { UsageError } from './arg-values.js';

/** The entitlements the relay acts on; granting any other would do nothing, so it is refused. */
export const KNOWN_ENTITLEMENTS: readonly string[] = ['developer-api'];

/** What an invite code looks like (moderation/invite-codes.ts makes them). */
export const INVITE_CODE = /^[A-Za-z0-9_-]{8,64}$/;

/** Without --expires a code lives a week: long enough to reach a teammate, short enough to go stale. */
export const DEFAULT_INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--expires 7d` (also `12h`, `30m`, or `never`) as milliseconds; null: never. */
export function inviteLifetime(v: string | undefined): number | null {
  if (v === undefined) return DEFAULT_INVITE_LIFETIME_MS;
  if (v === 'never') return null;
  const m = /^([1-9][0-9]{0,5})([mhd])$/.exec(v);
  if (!m) throw new UsageError(`--expires: a number and m, h or d (30m, 12h, 7d), or never; got ${JSON.stringify(v)}`);
  return Number(m[1]) * UNIT_MS[m[2]];
}

export function inviteCodeRef(v: string): string {
  if (!INVITE_CODE.test(v)) throw new UsageError(`not an invite code: ${JSON.stringify(v)}`);
  return v;
}
