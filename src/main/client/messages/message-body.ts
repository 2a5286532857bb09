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
 *
 * Signals (kinds `receipt`, `typing` and `group-removed`, docs/wire-format.md, Signals) are
 * never shown as messages: composeSignal and readSignal below. A receiver drops a malformed
 * one and ignores kinds it does not know; neither fails the batch it came in.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { LOWER_ADDRESS } from '../../../shared/identity-patterns.js';
import { isControlKind, readControl, readExpiresIn, type ControlBody, type ControlKind } from './message-control.js';
import { readFiles, type AttachmentRef } from '../attachments/attachment-wire.js';
export type MessageKind = 'text' | 'request';

export interface ComposeInput {
  id: string;
  sentAt: string;
  kind: MessageKind | ControlKind;
  /** the words (kinds text, request and edit; ignored for delete and timer) */
  text: string;
  /** kind-specific fields of an edit, delete or timer (message-control.ts), and `expiresIn` */
  extra?: Record<string, unknown>;
  /** direct messages only */
  to?: string;
  /** the sending device's key; absent for bot posts */
  device?: string;
  /** uploaded files: the message goes out as kind `attachment`, `text` its caption */
  files?: AttachmentRef[];
}

/** The `message` argument of vault.sealMessage (the vault adds `from`, `groupId` and signs). */
export function composeFields(input: ComposeInput): Record<string, unknown> {
  const out: Record<string, unknown> = { id: input.id, kind: input.kind, sentAt: input.sentAt };
  if (input.files) {
    out.kind = 'attachment';
    out.files = input.files;
    if (input.text !== '') out.text = input.text;
  } else if (input.kind === 'request') out.note = input.text;
  else if (input.kind === 'text' || input.kind === 'edit') out.text = input.text;
  Object.assign(out, input.extra);
  if (input.to !== undefined) out.to = input.to.toLowerCase();
  if (input.device !== undefined) out.device = input.device.toLowerCase();
  return out;
}

/** Most message ids one receipt names (wire format). */
export const MAX_RECEIPT_IDS = 100;

const MessageId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});
/** The kind-specific fields of a signal; the common ones (id, from, sentAt, to, device) are checked elsewhere. */
const SignalFields = Type.Union([
  Type.Object({
    kind: Type.Literal('receipt'),
    of: Type.Array(MessageId, { minItems: 1, maxItems: MAX_RECEIPT_IDS }),
    state: Type.Union([Type.Literal('delivered'), Type.Literal('read')]),
  }),
  Type.Object({ kind: Type.Literal('typing'), state: Type.Union([Type.Literal('on'), Type.Literal('off')]) }),
  // the sender took us out of a group: a notice only, which the receiver checks with the relay
  Type.Object({ kind: Type.Literal('group-removed'), group: MessageId }),
]);
const signalFields = Compile(SignalFields);

export type SignalBody = Static<typeof SignalFields>;
export type ReceiptBody = Extract<SignalBody, { kind: 'receipt' }>;
export type TypingBody = Extract<SignalBody, { kind: 'typing' }>;
export type GroupRemovedBody = Extract<SignalBody, { kind: 'group-removed' }>;

export interface SignalInput {
  id: string;
  sentAt: string;
  body: SignalBody;
  /** the peer (signals go only to direct conversations and small groups' members' devices) */
  to?: string;
  device?: string;
}

/** The `message` of a receipt or typing notice for vault.sealMessage; throws on a body the wire format refuses. */
export function composeSignal(input: SignalInput): Record<string, unknown> {
  const body =
    input.body.kind === 'receipt'
      ? { kind: 'receipt', of: input.body.of.map((id) => id.toLowerCase()), state: input.body.state }
      : input.body.kind === 'typing'
        ? { kind: 'typing', state: input.body.state }
        : { kind: 'group-removed', group: input.body.group.toLowerCase() };
  if (!signalFields.Check(body))
    throw new Error(
      `not a valid ${input.body.kind}: ${signalFields
        .Errors(body)
        .map((e) => `${e.instancePath || '/'} ${e.message}`)
        .join('; ')}`,
    );
  const out: Record<string, unknown> = { id: input.id, sentAt: input.sentAt, ...body };
  if (input.to !== undefined) out.to = input.to.toLowerCase();
  if (input.device !== undefined) out.device = input.device.toLowerCase();
  return out;
}

export type ReadSignal = SignalBody & { to: string | null; device: string | null };

/**
 * A receipt or typing notice read from an opened message; null for any other kind and for a
 * malformed one (ids not uuids, none or more than 100, an unknown state), which the caller
 * acks and drops. Ids come back lower-case.
 */
export function readSignal(m: Record<string, unknown>): ReadSignal | null {
  const fields =
    m.kind === 'receipt'
      ? { kind: m.kind, of: m.of, state: m.state }
      : m.kind === 'typing'
        ? { kind: m.kind, state: m.state }
        : m.kind === 'group-removed'
          ? { kind: m.kind, group: m.group }
          : null;
  if (fields === null || !signalFields.Check(fields)) return null;
  const body: SignalBody =
    fields.kind === 'receipt'
      ? { kind: 'receipt', of: fields.of.map((id) => id.toLowerCase()), state: fields.state }
      : fields.kind === 'group-removed'
        ? { kind: 'group-removed', group: fields.group.toLowerCase() }
        : fields;
  return { ...body, ...addressing(m) };
}

function addressing(m: Record<string, unknown>): { to: string | null; device: string | null } {
  const to = typeof m.to === 'string' && LOWER_ADDRESS.test(m.to.toLowerCase()) ? m.to.toLowerCase() : null;
  const device = typeof m.device === 'string' && DEVICE.test(m.device.toLowerCase()) ? m.device.toLowerCase() : null;
  return { to, device };
}

export interface ReadBody {
  kind: MessageKind;
  text: string;
  to: string | null;
  device: string | null;
  /** an edit, delete or timer (kind `text` then, with the edit's words or ''): applied, not shown as a message */
  control: ControlBody | null;
  /** the sender's disappearing timer (seconds), null when none or out of bounds */
  expiresIn: number | null;
  /** kind `attachment`: its files (shown as a `text` message with its caption) */
  files: AttachmentRef[] | null;
}

const DEVICE = /^[0-9a-f]{64}$/;

/** null when the kind is not one this client shows (it is acked and dropped). */
export function readBody(m: Record<string, unknown>): ReadBody | null {
  const kind = m.kind;
  let text: unknown;
  if (isControlKind(kind)) {
    const control = readControl(m);
    return control === null
      ? null
      : {
          kind: 'text',
          text: control.kind === 'edit' ? control.text : '',
          ...addressing(m),
          control,
          expiresIn: null,
          files: null,
        };
  }
  if (kind === 'attachment') {
    const files = readFiles(m.files);
    const caption = m.text ?? '';
    if (files === null || typeof caption !== 'string') return null;
    return { kind: 'text', text: caption, files, ...addressing(m), control: null, expiresIn: readExpiresIn(m) };
  }
  if (kind === 'text') text = m.text;
  else if (kind === 'request') text = typeof m.note === 'string' ? m.note : m.text;
  else return null;
  if (typeof text !== 'string') return null;
  return { kind, text, ...addressing(m), control: null, expiresIn: readExpiresIn(m), files: null };
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
