import { Type, type Static } from 'typebox';
import { Address, DateTime, DeviceKey, Signature, Uuid, Via } from './common.js';

export const Avatar = Type.Union([
  Type.String({ description: 'an http(s) URL or a data:image/... URI of at most 256 KiB' }),
  Type.Null(),
]);

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
  { $id: 'GroupSummary', title: 'GroupSummary' },
);
export type GroupSummary = Static<typeof GroupSummary>;

/** A summary plus what members see: who made it, who is in it, who may manage it. */
export const GroupDetail = Type.Object(
  {
    ...GroupSummary.properties,
    creatorAddress: Address,
    members: Type.Array(Address),
    admins: Type.Array(Address, {
      description:
        'members the creator made admins: they may add and remove members (not the creator nor other admins), edit the group and manage bot tokens',
    }),
    invited: Type.Optional(
      Type.Array(Address, { description: 'wallets invited but not yet members; shown to the creator and admins' }),
    ),
  },
  { $id: 'GroupDetail', title: 'GroupDetail' },
);
export type GroupDetail = Static<typeof GroupDetail>;

export const BotTokenMeta = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    prefix: Type.String(),
    createdAt: DateTime,
    revokedAt: Type.Union([DateTime, Type.Null()]),
    mintedBy: Type.Optional(
      Type.Union([Address, Type.Null()], {
        description:
          'the creator or admin who minted it (null for tokens older than the record); it is revoked when they stop being an admin or a member',
      }),
    ),
  },
  { $id: 'BotToken', title: 'BotToken' },
);
export type BotTokenMeta = Static<typeof BotTokenMeta>;

export const MemberDevice = Type.Object({ publicKey: DeviceKey, certificate: Signature }, { $id: 'MemberDevice' });

export const GroupView = Type.Object(
  {
    group: GroupDetail,
    memberDeviceKeys: Type.Record(Type.String(), Type.Array(DeviceKey)),
    memberDevices: Type.Record(Type.String(), Type.Array(MemberDevice)),
    auth: Type.Object({ via: Via, senderAddress: Address }),
    botTokens: Type.Optional(Type.Array(BotTokenMeta)),
  },
  { $id: 'GroupView', title: 'GroupView' },
);
export type GroupView = Static<typeof GroupView>;

export const GroupListQuery = Type.Object({
  mine: Type.Optional(Type.Literal('1')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  before: Type.Optional(Uuid),
});
export const GroupList = Type.Object({ groups: Type.Array(GroupSummary) }, { $id: 'GroupList' });
export type GroupList = Static<typeof GroupList>;

const GroupName = Type.String({ minLength: 1, maxLength: 80 });
const GroupPassword = Type.String({ minLength: 1, maxLength: 128 });

export const CreateGroupBody = Type.Object(
  {
    name: GroupName,
    isPublic: Type.Boolean(),
    password: Type.Optional(Type.Union([GroupPassword, Type.Null()])),
    avatar: Type.Optional(Avatar),
  },
  { $id: 'CreateGroupBody', additionalProperties: false },
);
export type CreateGroupBody = Static<typeof CreateGroupBody>;

export const PatchGroupBody = Type.Object(
  {
    name: Type.Optional(GroupName),
    isPublic: Type.Optional(Type.Boolean()),
    password: Type.Optional(Type.Union([GroupPassword, Type.Null()])),
    avatar: Type.Optional(Avatar),
  },
  { $id: 'PatchGroupBody', additionalProperties: false, minProperties: 1 },
);
export type PatchGroupBody = Static<typeof PatchGroupBody>;

export const AddMemberBody = Type.Object({ address: Address }, { $id: 'AddMemberBody', additionalProperties: false });

export const AddStatus = Type.Union([Type.Literal('member'), Type.Literal('invited')], {
  description: '`member`: added at once (the wallet allows you or has written to you); `invited`: it must accept first',
});
export type AddStatus = Static<typeof AddStatus>;
export const AddMemberResult = Type.Intersect([GroupDetail, Type.Object({ status: AddStatus })], {
  $id: 'AddMemberResult',
  title: 'AddMemberResult',
});
export type AddMemberResult = Static<typeof AddMemberResult>;

export const Invitation = Type.Object(
  { groupId: Uuid, name: Type.String(), creatorAddress: Address, invitedBy: Address, invitedAt: DateTime },
  { $id: 'Invitation', title: 'Invitation' },
);
export type Invitation = Static<typeof Invitation>;
export const InvitationList = Type.Object({ invitations: Type.Array(Invitation) }, { $id: 'InvitationList' });
export type InvitationList = Static<typeof InvitationList>;
export const InvitationAnswerBody = Type.Object(
  { accept: Type.Boolean() },
  { $id: 'InvitationAnswerBody', additionalProperties: false },
);
export const InvitationAnswer = Type.Object(
  {
    status: Type.Union([Type.Literal('member'), Type.Literal('declined')]),
    group: Type.Optional(GroupDetail),
  },
  { $id: 'InvitationAnswer', title: 'InvitationAnswer' },
);
export type InvitationAnswer = Static<typeof InvitationAnswer>;
export const JoinBody = Type.Object(
  { password: Type.Optional(Type.String({ maxLength: 128 })) },
  { $id: 'JoinBody', additionalProperties: false },
);
export const MintTokenBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 64 }) },
  { $id: 'MintTokenBody', additionalProperties: false },
);
export const MintTokenResult = Type.Object(
  {
    token: Type.String({ description: 'gtk_live_ secret, shown once' }),
    botToken: BotTokenMeta,
  },
  { $id: 'MintTokenResult' },
);
export type MintTokenResult = Static<typeof MintTokenResult>;
