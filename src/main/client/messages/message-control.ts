/**
 * The kinds that change a conversation rather than add to it (wire format, "Kinds beyond text
 * and request"): `edit` {of, text} and `delete` {of} name one of the author's own messages;
 * `timer` {seconds} sets the conversation's disappearing-message timer. And `expiresIn`, which
 * any message may carry: the sender's timer when it was sent.
 *
 * They are sealed, addressed and checked like messages (message-body.ts, core/sync-pass.ts); only
 * their fields are read here. A malformed one is null, which the caller acks and drops.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { MESSAGE_MAX_CHARS } from '../../../shared/domain.js';
import { TIMER_MAX_SECONDS, TIMER_MIN_SECONDS } from '../../../shared/disappearing.js';

const MessageId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});
const TimerSeconds = Type.Union([
  Type.Literal(0),
  Type.Integer({ minimum: TIMER_MIN_SECONDS, maximum: TIMER_MAX_SECONDS }),
]);
const ExpiresIn = Type.Integer({ minimum: TIMER_MIN_SECONDS, maximum: TIMER_MAX_SECONDS });

const ControlFields = Type.Union([
  Type.Object({
    kind: Type.Literal('edit'),
    of: MessageId,
    text: Type.String({ minLength: 1, maxLength: MESSAGE_MAX_CHARS }),
  }),
  Type.Object({ kind: Type.Literal('delete'), of: MessageId }),
  Type.Object({ kind: Type.Literal('timer'), seconds: TimerSeconds }),
]);
const controlFields = Compile(ControlFields);
const expiresInField = Compile(ExpiresIn);

export type ControlBody = Static<typeof ControlFields>;
export type ControlKind = ControlBody['kind'];

export function isControlKind(kind: unknown): kind is ControlKind {
  return kind === 'edit' || kind === 'delete' || kind === 'timer';
}

/** The kind-specific fields of a control message for composeFields; throws on a body the wire format refuses. */
export function controlFieldsOf(body: ControlBody): Record<string, unknown> {
  const out: Record<string, unknown> = body.kind === 'timer' ? { ...body } : { ...body, of: body.of.toLowerCase() };
  if (!controlFields.Check(out))
    throw new Error(
      `not a valid ${body.kind}: ${controlFields
        .Errors(out)
        .map((e) => `${e.instancePath || '/'} ${e.message}`)
        .join('; ')}`,
    );
  return out;
}

/** An edit, delete or timer read from an opened message; null for another kind or a malformed one. Ids come back lower-case. */
export function readControl(m: Record<string, unknown>): ControlBody | null {
  let fields: unknown;
  if (m.kind === 'edit') fields = { kind: m.kind, of: m.of, text: m.text };
  else if (m.kind === 'delete') fields = { kind: m.kind, of: m.of };
  else if (m.kind === 'timer') fields = { kind: m.kind, seconds: m.seconds };
  else return null;
  if (!controlFields.Check(fields)) return null;
  return fields.kind === 'timer' ? fields : { ...fields, of: fields.of.toLowerCase() };
}

/** A message's `expiresIn`, or null when absent or out of the wire format's bounds (then it does not disappear). */
export function readExpiresIn(m: Record<string, unknown>): number | null {
  return expiresInField.Check(m.expiresIn) ? m.expiresIn : null;
}
