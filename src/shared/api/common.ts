import { Type, type Static } from 'typebox';
import { ADDRESS_PATTERN, HANDLE_PATTERN } from '../identity-patterns.js';

/** 0x-prefixed wallet address, either case on input; the relay stores and returns lower case. */
export const Address = Type.String({
  pattern: ADDRESS_PATTERN,
  description: 'wallet address (0x + 40 hex)',
  examples: ['0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
});
export type Address = Static<typeof Address>;

/** X25519 public key as 64 hex characters. */
export const DeviceKey = Type.String({
  pattern: '^[0-9a-fA-F]{64}$',
  description: 'X25519 public key, 64 hex characters',
});
export type DeviceKey = Static<typeof DeviceKey>;

export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, in words for a person; never echoes the request URL' }),
    code: Type.String({ description: 'A stable name for the refusal (e.g. `bad-host`, `not-sealed`, `rate-limited`)' }),
  },
  {
    $id: 'Error',
    title: 'Error',
    description:
      'Every 4xx and 5xx answer has this shape, including those about the request itself (a malformed URL, an unknown route).',
  },
);
export type ErrorBody = Static<typeof ErrorBody>;

export const OkBody = Type.Object({ ok: Type.Literal(true) }, { $id: 'Ok' });

/** 0x-prefixed 65-byte secp256k1 signature (EIP-191 personal_sign). */
export const Signature = Type.String({
  pattern: '^0x[0-9a-fA-F]{130}$',
  description: 'EIP-191 personal_sign signature, 0x + 130 hex',
});

/** Plain decimal amount with at most 18 fractional digits. */
export const DecimalAmount = Type.String({
  pattern: '^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?$',
  description: 'decimal amount, at most 18 fractional digits',
  examples: ['0.01'],
});

export const Handle = Type.String({ pattern: HANDLE_PATTERN, description: '3-32 of a-z, 0-9 and _, case-insensitive' });

export const Routed = Type.Union(
  [Type.Literal('inbox'), Type.Literal('request'), Type.Literal('blocked'), Type.Literal('stake-gate')],
  { $id: 'Routed' },
);
export type Routed = Static<typeof Routed>;

export const Via = Type.Union([Type.Literal('group-token'), Type.Literal('api-key')], { $id: 'Via' });
export type Via = Static<typeof Via>;

export const StakeCurrency = Type.Union([Type.Literal('ETH'), Type.Literal('CRO')], { $id: 'StakeCurrency' });
export type StakeCurrency = Static<typeof StakeCurrency>;

/** Query or path limits that the contract fixes. */
export const LIMITS = {
  ratePerMinute: 120,
  batchMax: 100,
  ciphertextMaxBytes: 64 * 1024,
  bodyMaxBytes: 1024 * 1024,
  pullDefault: 100,
  pullMax: 500,
  directoryDefault: 20,
  directoryMax: 50,
  groupListMax: 100,
  avatarMaxBytes: 256 * 1024,
  challengeTtlMs: 5 * 60 * 1000,
} as const;
