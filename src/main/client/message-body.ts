/**
 * What the client puts into a signed message `m` beyond the wire format's common fields
 * (id, kind, from, sentAt, groupId, which the vault sets), and how it reads them back:
 *
 * - `text` (kind `text`) or `note` (kind `request`, a contact-request intro): the words.
 * - `to` (direct messages): the peer's address, so our own other devices, which receive a
 *   copy addressed to us, know which conversation it belongs to; a receiver that is not
 *   `to` (nor the author) rejects the message.
 * - `device` (people, not bots): the sender's device key, which must be one of the sender's
 *   certified devices.
 */
import { LOWER_ADDRESS } from '../../shared/identity-patterns.js';
export type MessageKind = 'text' | 'request';

export interface ComposeInput {
  id: string;
  sentAt: string;
  kind: MessageKind;
  text: string;
  /** direct messages only */
  to?: string;
  /** the sending device's key; absent for bot posts */
  device?: string;
}

/** The `message` argument of vault.sealMessage (the vault adds `from`, `groupId` and signs). */
export function composeFields(input: ComposeInput): Record<string, unknown> {
  const out: Record<string, unknown> = { id: input.id, kind: input.kind, sentAt: input.sentAt };
  if (input.kind === 'request') out.note = input.text;
  else out.text = input.text;
  if (input.to !== undefined) out.to = input.to.toLowerCase();
  if (input.device !== undefined) out.device = input.device.toLowerCase();
  return out;
}

export interface ReadBody {
  kind: MessageKind;
  text: string;
  to: string | null;
  device: string | null;
}

const DEVICE = /^[0-9a-f]{64}$/;

/** null when the kind is not one this client shows (it is acked and dropped). */
export function readBody(m: Record<string, unknown>): ReadBody | null {
  const kind = m.kind;
  let text: unknown;
  if (kind === 'text') text = m.text;
  else if (kind === 'request') text = typeof m.note === 'string' ? m.note : m.text;
  else return null;
  if (typeof text !== 'string') return null;
  const to = typeof m.to === 'string' && LOWER_ADDRESS.test(m.to.toLowerCase()) ? m.to.toLowerCase() : null;
  const device = typeof m.device === 'string' && DEVICE.test(m.device.toLowerCase()) ? m.device.toLowerCase() : null;
  return { kind, text, to, device };
}

/** Longest bot name kept, as the relay mints them (MintTokenBody). */
export const MAX_BOT_NAME = 64;

/**
 * The relay's `botName`, cleaned like any text a relay gives us: control and format characters
 * (bidi overrides among them) could make one name pass for another on screen. null when absent,
 * not a string (an older relay sends nothing) or empty once cleaned.
 */
export function readBotName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const clean = [...value.replace(/[\p{Cc}\p{Cf}]/gu, '').trim()].slice(0, MAX_BOT_NAME).join('').trim();
  return clean === '' ? null : clean;
}
