import type { StakeCurrency } from '../../../shared/api/common.js';
import type { Envelope, SendResult } from '../../../shared/api/envelopes.js';
import type { EnvelopeStake, StakeQuote } from '../../../shared/api/stakes.js';
import type { ApiKeyMeta } from '../../../shared/api/account.js';
import type { BotTokenMeta, GroupSummary } from '../../../shared/api/groups.js';
import type { ApiKeyRow, BotTokenRow, DeliveryOutcome, EnvelopeRow, GroupRow } from '../store/store.js';

/** Rows (epoch ms, lower-case) into the wire shapes of src/shared/api. */
export const iso = (ms: number) => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function presentEnvelope(e: EnvelopeRow): Envelope {
  const out: Envelope = {
    id: e.id,
    senderAddress: e.senderAddress,
    recipientAddress: e.recipientAddress,
    recipientDeviceKey: e.recipientDeviceKey,
    ciphertext: e.ciphertext,
    ephemeralPublicKey: e.ephemeralPublicKey,
    nonce: e.nonce,
    createdAt: iso(e.createdAt),
    delivered: false,
    routed: e.routed,
    groupId: e.groupId,
    via: e.via,
    botName: e.botName,
  };
  if (e.stake) out.stake = JSON.parse(e.stake) as EnvelopeStake;
  return out;
}

/** Text that JSON.stringify and SQLite's json_object write alike: printable ASCII (both escape only its quote and backslash). */
const PLAIN_TEXT = /^[\x20-\x7e]*$/;
const plain = (v: string | null) => v === null || PLAIN_TEXT.test(v);

/**
 * A page of rows as the wire JSON array a store's `pullWire` gives for them, or null when a row
 * might be written differently there (text outside printable ASCII, a stake's JSON): the caller
 * then asks the store.
 */
export function envelopesWire(rows: readonly EnvelopeRow[]): string | null {
  const parts: string[] = [];
  for (const e of rows) {
    const texts = [
      e.id,
      e.senderAddress,
      e.recipientAddress,
      e.recipientDeviceKey,
      e.ciphertext,
      e.ephemeralPublicKey,
      e.nonce,
      e.groupId,
      e.botName,
    ];
    if (e.stake || !texts.every(plain)) return null;
    parts.push(JSON.stringify(presentEnvelope(e)));
  }
  return `[${parts.join(',')}]`;
}

export function presentApiKey(k: ApiKeyRow): ApiKeyMeta {
  return {
    id: k.id,
    label: k.label,
    prefix: k.prefix,
    deviceKey: k.deviceKey,
    createdAt: iso(k.createdAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    revokedAt: isoOrNull(k.revokedAt),
  };
}

export function presentBotToken(t: BotTokenRow): BotTokenMeta {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    createdAt: iso(t.createdAt),
    revokedAt: isoOrNull(t.revokedAt),
    mintedBy: t.mintedBy,
  };
}

export function presentGroup(g: GroupRow): GroupSummary {
  return {
    id: g.id,
    name: g.name,
    isPublic: g.isPublic,
    verified: g.verified,
    hasPassword: g.passwordHash !== null,
    avatar: g.avatar,
    memberCount: g.memberCount,
    createdAt: iso(g.createdAt),
  };
}

export function presentOutcome(o: DeliveryOutcome, currency: StakeCurrency, quote?: StakeQuote): SendResult {
  // Built directly (no spreads): one answer per envelope sent, on the hottest route.
  const out: SendResult = { routed: o.routed };
  if (o.stakeRequired !== undefined) {
    out.stakeRequired = o.stakeRequired;
    out.stakeCurrency = currency;
  }
  if (quote) out.stakeQuote = quote;
  if (o.stakeStatus !== undefined) out.stakeStatus = o.stakeStatus;
  if (o.envelope) out.envelope = presentEnvelope(o.envelope);
  return out;
}
