/** The commands of groups, their members and bot tokens (see ../ipc.ts for the whole contract). */
import { Type } from 'typebox';
import type { BotToken, GroupAddResult, GroupInfo } from '../domain.js';
import { Address, Recipient, Uuid, NoArgs, cmd } from './args.js';

export const groupCommands = {
  // groups
  'groups.listPublic': cmd<GroupInfo[]>()(NoArgs),
  'groups.listMine': cmd<GroupInfo[]>()(NoArgs),
  'groups.get': cmd<GroupInfo>()(Type.Object({ groupId: Uuid }, { additionalProperties: false })),
  'groups.create': cmd<GroupInfo>()(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 80 }),
        isPublic: Type.Boolean(),
        password: Type.Optional(Type.String({ maxLength: 128 })),
        avatar: Type.Optional(Type.String({ maxLength: 400_000 })),
      },
      { additionalProperties: false },
    ),
  ),
  'groups.join': cmd<GroupInfo>()(
    Type.Object(
      { groupId: Uuid, password: Type.Optional(Type.String({ maxLength: 128 })) },
      { additionalProperties: false },
    ),
  ),
  'groups.leave': cmd<void>()(Type.Object({ groupId: Uuid }, { additionalProperties: false })),
  // `added: 'invited'` when the other wallet must accept first (docs/protocol.md §12 Groups)
  'groups.addMember': cmd<GroupAddResult>()(
    Type.Object({ groupId: Uuid, member: Recipient }, { additionalProperties: false }),
  ),
  'groups.removeMember': cmd<GroupInfo>()(
    Type.Object({ groupId: Uuid, address: Address }, { additionalProperties: false }),
  ),
  'groups.listTokens': cmd<BotToken[]>()(Type.Object({ groupId: Uuid }, { additionalProperties: false })),
  'groups.mintToken': cmd<{ token: string; botToken: BotToken }>()(
    Type.Object({ groupId: Uuid, name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  ),
  'groups.revokeToken': cmd<void>()(Type.Object({ groupId: Uuid, tokenId: Uuid }, { additionalProperties: false })),
  // creator only: admins may add and remove members (not the creator nor other admins), edit the group, manage bot tokens
  'groups.addAdmin': cmd<GroupInfo>()(
    Type.Object({ groupId: Uuid, address: Address }, { additionalProperties: false }),
  ),
  'groups.removeAdmin': cmd<GroupInfo>()(
    Type.Object({ groupId: Uuid, address: Address }, { additionalProperties: false }),
  ),
} as const;
