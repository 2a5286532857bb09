import { Type, type Static } from 'typebox';
import { Address, DateTime, DecimalAmount, DeviceKey, Handle, Signature } from './common.js';

export const ChallengeBody = Type.Object({ address: Address }, { $id: 'ChallengeBody', additionalProperties: false });
export const ChallengeResult = Type.Object(
  {
    message: Type.String({ description: 'EIP-4361 message to sign with personal_sign' }),
    expiresAt: DateTime,
  },
  { $id: 'ChallengeResult' },
);
export type ChallengeResult = Static<typeof ChallengeResult>;

export const DeviceRegistration = Type.Object(
  { publicKey: DeviceKey, certificate: Signature },
  {
    $id: 'DeviceRegistration',
    additionalProperties: false,
    description:
      'Optional in sign-in; binds the new key to this device. certificate: the wallet\'s EIP-191 personal_sign over the exact text "Relay device key <publicKey> for <address>", both lower-case (the address too, not its EIP-55 spelling).',
  },
);
export type DeviceRegistration = Static<typeof DeviceRegistration>;

export const SignInBody = Type.Object(
  {
    message: Type.String({ maxLength: 4096 }),
    signature: Signature,
    label: Type.Optional(Type.String({ maxLength: 64 })),
    device: Type.Optional(DeviceRegistration),
    /** an invite code from the relay's operator: a new wallet needs one on a relay in invite mode */
    invite: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { $id: 'SignInBody', additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

export const ApiKeyMeta = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    label: Type.Union([Type.String(), Type.Null()]),
    prefix: Type.String(),
    deviceKey: Type.Union([DeviceKey, Type.Null()]),
    createdAt: DateTime,
    lastUsedAt: Type.Union([DateTime, Type.Null()]),
    revokedAt: Type.Union([DateTime, Type.Null()]),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);
export type ApiKeyMeta = Static<typeof ApiKeyMeta>;

export const MintKeyResult = Type.Object(
  {
    apiKey: Type.String({ description: 'sk_live_ secret, shown once' }),
    key: ApiKeyMeta,
  },
  { $id: 'MintKeyResult' },
);
export type MintKeyResult = Static<typeof MintKeyResult>;
export const MintKeyBody = Type.Object(
  { label: Type.Optional(Type.String({ maxLength: 64 })) },
  { $id: 'MintKeyBody', additionalProperties: false },
);
export const KeyList = Type.Object({ keys: Type.Array(ApiKeyMeta) }, { $id: 'KeyList' });

export const HandleBody = Type.Object({ handle: Handle }, { $id: 'HandleBody', additionalProperties: false });

export const UnknownSenders = Type.Union([Type.Literal('request'), Type.Literal('stake-gate'), Type.Literal('block')], {
  $id: 'UnknownSenders',
});
export type UnknownSenders = Static<typeof UnknownSenders>;
export const Policy = Type.Object(
  { unknownSenders: UnknownSenders, stake: Type.Optional(DecimalAmount) },
  { $id: 'Policy', additionalProperties: false, title: 'Policy' },
);
export type Policy = Static<typeof Policy>;

export const Contacts = Type.Object(
  { allowed: Type.Array(Address), blocked: Type.Array(Address) },
  { $id: 'Contacts' },
);
export type Contacts = Static<typeof Contacts>;

export const AddressParams = Type.Object({ address: Type.String() });
