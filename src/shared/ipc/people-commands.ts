/** The commands of contact requests, stakes, contacts, the directory and group invitations (see ../ipc.ts for the whole contract). */
import { Type } from 'typebox';
import type {
  BlockedPerson,
  ChatMessage,
  ContactRequest,
  DirectoryHit,
  GroupInfo,
  GroupInvitation,
  KnownHandle,
  StakeInfo,
  StakeSettings,
} from '../domain.js';
import type { ContactTrust, SafetyNumberInfo } from '../trust.js';
import { Address, Uuid, NoArgs, cmd } from './args.js';

export const peopleCommands = {
  // contact requests and contacts
  'requests.list': cmd<ContactRequest[]>()(NoArgs),
  'requests.accept': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),
  'requests.decline': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),
  // "spam": a staked request's stake goes to us (a transaction), the sender is blocked and forgotten
  'requests.spam': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),

  // stakes (docs/protocol.md §13 Stakes): requests.accept releases a staked request's stake
  'stakes.settings': cmd<StakeSettings>()(NoArgs),
  'stakes.setRpcUrl': cmd<StakeSettings>()(
    Type.Object(
      {
        chainId: Type.Integer({ minimum: 1 }),
        url: Type.Union([Type.String({ pattern: '^https?://', maxLength: 2048 }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  ),
  'stakes.list': cmd<StakeInfo[]>()(
    Type.Object(
      { role: Type.Optional(Type.Union([Type.Literal('sent'), Type.Literal('received')])) },
      { additionalProperties: false },
    ),
  ),
  /** deposits the stake a gate asked for this message and sends it again with it */
  'stakes.pay': cmd<{ message: ChatMessage; stake: StakeInfo | null }>()(
    Type.Object({ messageId: Uuid }, { additionalProperties: false }),
  ),
  /** takes a sent stake back: accepted (release signature) or past its deadline */
  'stakes.refund': cmd<StakeInfo>()(
    Type.Object({ id: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }) }, { additionalProperties: false }),
  ),
  'contacts.block': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),
  'contacts.unblock': cmd<void>()(Type.Object({ address: Address }, { additionalProperties: false })),
  /** everyone I blocked (Settings → Blocked) */
  'contacts.blocked': cmd<BlockedPerson[]>()(NoArgs),
  /** The handles main knows for these addresses; the rest it looks up (paced) and announces with `contact.updated`. */
  'contacts.handles': cmd<KnownHandle[]>()(
    Type.Object({ addresses: Type.Array(Address, { maxItems: 500 }) }, { additionalProperties: false }),
  ),
  // safety numbers: compare them, mark the contact verified (false: unmark, or send anyway after a change)
  'contacts.safetyNumber': cmd<SafetyNumberInfo>()(Type.Object({ address: Address }, { additionalProperties: false })),
  'contacts.verify': cmd<SafetyNumberInfo>()(
    Type.Object({ address: Address, verified: Type.Boolean() }, { additionalProperties: false }),
  ),
  /** the mark and the device notices (newest first); for one's own address, Settings' notices */
  'contacts.trust': cmd<ContactTrust>()(Type.Object({ address: Address }, { additionalProperties: false })),

  // directory
  'directory.search': cmd<DirectoryHit[]>()(
    Type.Object({ q: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  ),

  // group invitations: nothing of the group reaches me until I accept
  'invitations.list': cmd<GroupInvitation[]>()(NoArgs),
  'invitations.accept': cmd<GroupInfo>()(Type.Object({ groupId: Uuid }, { additionalProperties: false })),
  // blockInviter: decline and block whoever invited me, so they cannot invite me again
  'invitations.decline': cmd<void>()(
    Type.Object({ groupId: Uuid, blockInviter: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  ),
} as const;
