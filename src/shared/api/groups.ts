import { Type, type Static } from 'typebox';
import { Address, DateTime, DeviceKey, Signature, Uuid, Via } from './common.js';

export const Avatar = Type.Union([Type.String({ description: 'an http(s) URL or a data:image/... URI of at most 256 KiB' }), Type.Null()]);

export const GroupSummary = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    isPublic: Type.Boolean(),
    verified: Type.Boolean(),
    hasPassword: Type.Boolean(),
    avatar: Avatar,
    memberCount: Type.Integer(),
    createdAt: DateTime,
  },
  { title: 'GroupSummary' },
);
export type GroupSummary = Static<typeof GroupSummary>;

export const GroupDetail = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    isPublic: Type.Boolean(),
    verified: Type.Boolean(),
    hasPassword: Type.Boolean(),
    avatar: Avatar,
    memberCount: Type.Integer(),
    createdAt: DateTime,
    creatorAddress: Address,
    members: Type.Array(Address),
  },
  { title: 'GroupDetail' },
);
export type GroupDetail = Static<typeof GroupDetail>;

export const BotTokenMeta = Type.Object(
  { id: Uuid, name: Type.String(), prefix: Type.String(), createdAt: DateTime, revokedAt: Type.Union([DateTime, Type.Null()]) },
  { title: 'BotToken' },
);
export type BotTokenMeta = Static<typeof BotTokenMeta>;

export const MemberDevice = Type.Object({ publicKey: DeviceKey, certificate: Signature });

export const GroupView = Type.Object(
  {
    group: GroupDetail,
    memberDeviceKeys: Type.Record(Type.String(), Type.Array(DeviceKey)),
    memberDevices: Type.Record(Type.String(), Type.Array(MemberDevice)),
    auth: Type.Object({ via: Via, senderAddress: Address }),
    botTokens: Type.Optional(Type.Array(BotTokenMeta)),
  },
  { title: 'GroupView' },
);
export type GroupView = Static<typeof GroupView>;

export const GroupListQuery = Type.Object({
  mine: Type.Optional(Type.Literal('1')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  before: Type.Optional(Uuid),
});
export const GroupList = Type.Object({ groups: Type.Array(GroupSummary) });
export type GroupList = Static<typeof GroupList>;

const GroupName = Type.String({ minLength: 1, maxLength: 80 });
const GroupPassword = Type.String({ minLength: 1, maxLength: 128 });

export const CreateGroupBody = Type.Object(
  { name: GroupName, isPublic: Type.Boolean(), password: Type.Optional(Type.Union([GroupPassword, Type.Null()])), avatar: Type.Optional(Avatar) },
  { additionalProperties: false },
);
export type CreateGroupBody = Static<typeof CreateGroupBody>;

export const PatchGroupBody = Type.Object(
  { name: Type.Optional(GroupName), isPublic: Type.Optional(Type.Boolean()), password: Type.Optional(Type.Union([GroupPassword, Type.Null()])), avatar: Type.Optional(Avatar) },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchGroupBody = Static<typeof PatchGroupBody>;

export const AddMemberBody = Type.Object({ address: Address }, { additionalProperties: false });
export const JoinBody = Type.Object({ password: Type.Optional(Type.String({ maxLength: 128 })) }, { additionalProperties: false });
export const MintTokenBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export const MintTokenResult = Type.Object({ token: Type.String({ description: 'gtk_live_ secret, shown once' }), botToken: BotTokenMeta });
export type MintTokenResult = Static<typeof MintTokenResult>;

export const GroupIdParams = Type.Object({ id: Type.String() });
