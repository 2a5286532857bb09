import { Type, type Static } from 'typebox';
import { Address, DateTime, StakeCurrency } from './common.js';

const Hex32 = (description: string) => Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description });
const Wei = Type.String({
  pattern: '^[0-9]{1,30}$',
  description: 'amount in wei (10⁻¹⁸ of the currency), a decimal integer string',
});
const EpochSeconds = (description: string) => Type.Integer({ minimum: 0, description });

export const StakeStatus = Type.Union(
  [Type.Literal('active'), Type.Literal('released'), Type.Literal('forfeited'), Type.Literal('refunded')],
  { $id: 'StakeStatus', description: "the escrow's status of the stake" },
);
export const StakeRefusal = Type.Union(
  [
    Type.Literal('unconfirmed'),
    Type.Literal('not-found'),
    Type.Literal('insufficient'),
    Type.Literal('bad-deadline'),
    Type.Literal('used'),
    Type.Literal('expired-quote'),
  ],
  {
    $id: 'StakeRefusal',
    description:
      'why a staked send was refused: `unconfirmed` (deposit not yet deep enough: send again after a block), `not-found` (no deposit for this ref, or the ref is not yours for this recipient), `insufficient`, `bad-deadline`, `used` (the stake already opened a request), `expired-quote`',
  },
);
export const StakeRef = Hex32('the `ref` of a stake quote, after depositing with it');

export const StakeConfig = Type.Object(
  {
    enabled: Type.Boolean({
      description:
        'false: this relay has no chain; stake-gate cannot be set and such recipients receive plain requests',
    }),
    currency: StakeCurrency,
    chainId: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    escrow: Type.Union([Address, Type.Null()]),
    confirmations: Type.Integer({
      minimum: 0,
      description: 'blocks deep a deposit must be before the relay counts it',
    }),
    minLockSeconds: Type.Integer({
      minimum: 0,
      description: "the shortest lock a stake may have (a quote's minDeadline is this far ahead)",
    }),
    maxLockSeconds: Type.Integer({ minimum: 0, description: 'the longest lock the escrow allows (30 days)' }),
    rpcUrls: Type.Array(Type.String(), {
      description: 'the JSON-RPC endpoints the relay reads; a client may use them or its own',
    }),
  },
  { $id: 'StakeConfig', title: 'StakeConfig' },
);
export type StakeConfig = Static<typeof StakeConfig>;

export const StakeQuote = Type.Object(
  {
    chainId: Type.Integer({ minimum: 1 }),
    escrow: Address,
    amountWei: Wei,
    ref: Hex32(
      'single-use, bound to you, the recipient and the amount: pass it to `deposit` and then as `stakeRef` on each envelope',
    ),
    recipient: Address,
    minDeadline: EpochSeconds("the deposit's deadline must be at least this (epoch seconds)"),
    maxDeadline: EpochSeconds('and at most this (epoch seconds)'),
    expiresAt: DateTime,
  },
  {
    $id: 'StakeQuote',
    title: 'StakeQuote',
    description:
      'What to deposit: `deposit(recipient, ref, deadline)` on `escrow` with `amountWei`, then send again with `stakeRef: ref`.',
  },
);
export type StakeQuote = Static<typeof StakeQuote>;

export const EnvelopeStake = Type.Object(
  {
    chainId: Type.Integer({ minimum: 1 }),
    escrow: Address,
    id: Hex32("the escrow's stake id"),
    amountWei: Wei,
    deadline: EpochSeconds('refundable to the sender from this time (epoch seconds)'),
    status: StakeStatus,
  },
  {
    $id: 'EnvelopeStake',
    title: 'EnvelopeStake',
    description: 'The stake that opened this contact request, as the relay read it from the chain.',
  },
);
export type EnvelopeStake = Static<typeof EnvelopeStake>;

export const StakeRecord = Type.Object(
  {
    ...EnvelopeStake.properties,
    sender: Address,
    recipient: Address,
    ref: Hex32("the quote's ref"),
    createdAt: DateTime,
    releaseSignature: Type.Union([Type.String({ pattern: '^0x[0-9a-fA-F]{130}$' }), Type.Null()], {
      description:
        "the recipient's EIP-712 Release(bytes32 id) signature, once given: the sender submits it with releaseWithSig",
    }),
    refundableAt: DateTime,
  },
  { $id: 'StakeRecord', title: 'StakeRecord' },
);
export type StakeRecord = Static<typeof StakeRecord>;

export const StakeList = Type.Object({ stakes: Type.Array(StakeRecord) }, { $id: 'StakeList', title: 'StakeList' });
export const StakeListQuery = Type.Object({
  role: Type.Optional(Type.Union([Type.Literal('sent'), Type.Literal('received')], { description: 'default: both' })),
});
export const StakeIdParams = Type.Object({ id: Hex32('stake id') });
export const ReleaseBody = Type.Object(
  {
    signature: Type.String({
      pattern: '^0x[0-9a-fA-F]{130}$',
      description:
        'EIP-712 signature of Release(bytes32 id) in the domain { name: "RelayStakeEscrow", version: "1", chainId, verifyingContract: escrow }',
    }),
  },
  { $id: 'ReleaseBody', additionalProperties: false },
);
