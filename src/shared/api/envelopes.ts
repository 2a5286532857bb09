import { Type, type Static } from 'typebox';
import { Address, DateTime, DeviceKey, Routed, StakeCurrency, Uuid, Via } from './common.js';
import { EnvelopeStake, StakeQuote, StakeRef, StakeRefusal } from './stakes.js';
import { ADDRESS_PATTERN } from '../identity-patterns.js';

const EnvelopeFields = {
  toAddress: Type.String({ pattern: ADDRESS_PATTERN, description: '0x-prefixed recipient address' }),
  recipientDeviceKey: Type.Optional(
    Type.Union([DeviceKey, Type.Null()], {
      description: 'device public key the ciphertext was sealed for, from GET /api/v1/keys/{address}',
    }),
  ),
  ciphertext: Type.String({
    minLength: 1,
    description:
      'standard base64 (padding optional, answered padded) of AES-256-GCM output (ciphertext and 16-byte tag), at most 64 KiB decoded',
  }),
  ephemeralPublicKey: Type.String({
    pattern: '^[0-9a-fA-F]{64}$',
    description: '32-byte X25519 public key, 64 hex characters',
  }),
  nonce: Type.String({ description: 'standard base64 (padding optional, answered padded) of a 12-byte GCM IV' }),
};

export const EnvelopeInput = Type.Object(
  {
    ...EnvelopeFields,
    asRequest: Type.Optional(Type.Boolean({ description: 'deliver as a contact-request intro' })),
    stakeRef: Type.Optional(StakeRef),
  },
  { $id: 'EnvelopeInput', title: 'EnvelopeInput', additionalProperties: false },
);
export type EnvelopeInput = Static<typeof EnvelopeInput>;

export const GroupEnvelopeInput = Type.Object(EnvelopeFields, {
  $id: 'GroupEnvelopeInput',
  title: 'GroupEnvelopeInput',
  additionalProperties: false,
});
export type GroupEnvelopeInput = Static<typeof GroupEnvelopeInput>;

export const Envelope = Type.Object(
  {
    id: Uuid,
    senderAddress: Address,
    recipientAddress: Address,
    recipientDeviceKey: Type.Union([DeviceKey, Type.Null()]),
    ciphertext: Type.String(),
    ephemeralPublicKey: DeviceKey,
    nonce: Type.String(),
    createdAt: DateTime,
    delivered: Type.Boolean(),
    routed: Type.Union([Type.Literal('inbox'), Type.Literal('request')]),
    groupId: Type.Union([Uuid, Type.Null()]),
    via: Type.Union([Via, Type.Null()]),
    botName: Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
      description:
        "on a group-token send, the name its creator gave the token that posted (the relay's word for which bot it was); null on every other envelope",
    }),
    stake: Type.Optional(EnvelopeStake),
  },
  { $id: 'Envelope', title: 'Envelope' },
);
export type Envelope = Static<typeof Envelope>;

export const SendResult = Type.Object(
  {
    routed: Routed,
    stakeRequired: Type.Optional(
      Type.String({ description: 'refundable anti-spam stake the recipient asks for, decimal' }),
    ),
    stakeCurrency: Type.Optional(StakeCurrency),
    stakeQuote: Type.Optional(StakeQuote),
    stakeStatus: Type.Optional(StakeRefusal),
    envelope: Type.Optional(Envelope),
  },
  { $id: 'SendResult', title: 'SendResult' },
);
export type SendResult = Static<typeof SendResult>;

export const SendBody = Type.Union(
  [
    EnvelopeInput,
    Type.Array(EnvelopeInput, { minItems: 1 }),
    Type.Object({ envelopes: Type.Array(EnvelopeInput, { minItems: 1 }) }, { additionalProperties: false }),
  ],
  { $id: 'SendBody' },
);
export type SendBody = Static<typeof SendBody>;

export const GroupSendBody = Type.Union(
  [
    GroupEnvelopeInput,
    Type.Array(GroupEnvelopeInput, { minItems: 1 }),
    Type.Object({ envelopes: Type.Array(GroupEnvelopeInput, { minItems: 1 }) }, { additionalProperties: false }),
  ],
  { $id: 'GroupSendBody' },
);
export type GroupSendBody = Static<typeof GroupSendBody>;

export const BatchResults = Type.Object({ results: Type.Array(SendResult) }, { $id: 'BatchResults' });
export const GroupSendResults = Type.Object({ results: Type.Array(SendResult), via: Via }, { $id: 'GroupSendResults' });

/** Longest a pull may be held: under common proxy timeouts (nginx's 60 s) with room to spare. */
export const MAX_PULL_WAIT_SECONDS = 25;

export const PullQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_PULL_WAIT_SECONDS,
      description: 'seconds to hold the request while nothing is queued (0 = answer at once)',
    }),
  ),
});
export const PullResult = Type.Object({ envelopes: Type.Array(Envelope) }, { $id: 'PullResult' });
export type PullResult = Static<typeof PullResult>;

export const AckBody = Type.Object(
  { ids: Type.Array(Type.String(), { minItems: 1, maxItems: 500 }) },
  { $id: 'AckBody' },
);
export const AckResult = Type.Object(
  { ok: Type.Literal(true), acked: Type.Integer({ minimum: 0 }) },
  { $id: 'AckResult' },
);
