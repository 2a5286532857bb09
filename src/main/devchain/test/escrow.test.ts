import {
  BaseError,
  ContractFunctionRevertedError,
  encodeAbiParameters,
  keccak256,
  maxUint96,
  parseEther,
  toHex,
  type Abi,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { ESCROW_ABI } from '../../contracts/escrow-artifact.js';
import { ANVIL_KEYS, ANVIL_MISSING } from '../anvil.js';
import { compileContract } from '../compile-escrow.js';
import { startLocalChain, type LocalChain } from '../local-chain.js';

const DAY = 86_400n;
const SENDER = privateKeyToAccount(ANVIL_KEYS[1]);
const RECIPIENT = privateKeyToAccount(ANVIL_KEYS[2]);
const STRANGER = privateKeyToAccount(ANVIL_KEYS[3]);
const STAKE = parseEther('0.01');

let c: LocalChain;
let snapshot: Hex;
let refCounter = 0;
const nextRef = () => keccak256(toHex(`ref-${++refCounter}`));

async function revertName(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof BaseError) {
      const inner = e.walk((x) => x instanceof ContractFunctionRevertedError);
      if (inner instanceof ContractFunctionRevertedError)
        return inner.data?.errorName ?? inner.reason ?? 'unnamed revert';
    }
    throw e;
  }
  throw new Error('expected a revert, but the call succeeded');
}

/** The timestamp the next transaction will see, pinned. */
async function at(timestamp: bigint) {
  await c.test.setNextBlockTimestamp({ timestamp });
}

async function now() {
  return (await c.pub.getBlock()).timestamp;
}

/** The escrow's ABI as a plain Abi, so that a test may name any function with arguments of its choosing (the contract checks them). */
const LOOSE_ABI: Abi = ESCROW_ABI;

async function write(
  key: Hex,
  functionName: 'deposit' | 'release' | 'forfeit' | 'refund' | 'releaseWithSig' | 'forfeitWithSig',
  args: readonly unknown[],
  value?: bigint,
) {
  const w = c.wallet(key);
  const hash = await w.writeContract({ address: c.escrow, abi: LOOSE_ABI, functionName, args, value });
  const receipt = await c.pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

async function deposit(
  opts: { deadline?: bigint; value?: bigint; ref?: Hex; recipient?: `0x${string}`; key?: Hex } = {},
) {
  const t = await now();
  const ref = opts.ref ?? nextRef();
  const deadline = opts.deadline ?? t + 7n * DAY;
  const receipt = await write(
    opts.key ?? ANVIL_KEYS[1],
    'deposit',
    [opts.recipient ?? RECIPIENT.address, ref, Number(deadline)],
    opts.value ?? STAKE,
  );
  const sender = privateKeyToAccount(opts.key ?? ANVIL_KEYS[1]).address;
  const id = keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'bytes32' }],
      [BigInt(c.anvil.chainId), c.escrow, sender, opts.recipient ?? RECIPIENT.address, ref],
    ),
  );
  return { id, ref, deadline, receipt };
}

const stake = (id: Hex) =>
  c.pub.readContract({ address: c.escrow, abi: ESCROW_ABI, functionName: 'stakes', args: [id] });
const balance = (a: `0x${string}`) => c.pub.getBalance({ address: a });
const sim = (key: Hex, functionName: string, args: readonly unknown[], value?: bigint) =>
  c.pub.simulateContract({
    account: privateKeyToAccount(key),
    address: c.escrow,
    abi: LOOSE_ABI,
    functionName,
    args,
    value,
  });

function signAs(
  key: Hex,
  primaryType: 'Release' | 'Forfeit',
  id: Hex,
  domain: { chainId?: number; verifyingContract?: `0x${string}` } = {},
) {
  return privateKeyToAccount(key).signTypedData({
    domain: {
      name: 'RelayStakeEscrow',
      version: '1',
      chainId: domain.chainId ?? c.anvil.chainId,
      verifyingContract: domain.verifyingContract ?? c.escrow,
    },
    types: { [primaryType]: [{ name: 'id', type: 'bytes32' }] },
    primaryType,
    message: { id },
  });
}

describe.skipIf(ANVIL_MISSING !== null)(
  `escrow contract on anvil${ANVIL_MISSING ? ` (skipped: ${ANVIL_MISSING})` : ''}`,
  () => {
    beforeAll(async () => {
      c = await startLocalChain();
    });
    afterAll(async () => {
      await c?.stop();
    });
    beforeEach(async () => {
      snapshot = await c.test.snapshot();
    });
    afterEach(async () => {
      await c.test.revert({ id: snapshot });
    });

    it('deposit stores the stake under the id docs/protocol.md §13 defines, emits Staked and costs under 80,000 gas', async () => {
      const { id, ref, deadline, receipt } = await deposit();
      expect(receipt.gasUsed).toBeLessThan(80_000n);
      expect(await stake(id)).toEqual([SENDER.address, STAKE, RECIPIENT.address, Number(deadline), 1]);
      expect(
        await c.pub.readContract({
          address: c.escrow,
          abi: ESCROW_ABI,
          functionName: 'stakeId',
          args: [SENDER.address, RECIPIENT.address, ref],
        }),
      ).toBe(id);
      const logs = await c.pub.getContractEvents({
        address: c.escrow,
        abi: ESCROW_ABI,
        eventName: 'Staked',
        fromBlock: receipt.blockNumber,
      });
      expect(logs.map((l) => l.args)).toEqual([
        { id, sender: SENDER.address, recipient: RECIPIENT.address, amount: STAKE, deadline: Number(deadline), ref },
      ]);
      expect(await balance(c.escrow)).toBe(STAKE);
    });

    it('deposit refuses zero, too much, no recipient, oneself and deadlines outside (now, now + 30 days]', async () => {
      const t = (await now()) + 100n;
      const ok = t + DAY;
      await at(t);
      expect(await revertName(sim(ANVIL_KEYS[1], 'deposit', [RECIPIENT.address, nextRef(), Number(ok)], 0n))).toBe(
        'ZeroAmount',
      );
      await c.test.setBalance({ address: SENDER.address, value: maxUint96 * 4n });
      expect(
        await revertName(sim(ANVIL_KEYS[1], 'deposit', [RECIPIENT.address, nextRef(), Number(ok)], maxUint96 + 1n)),
      ).toBe('AmountTooLarge');
      expect(
        await revertName(
          sim(ANVIL_KEYS[1], 'deposit', ['0x0000000000000000000000000000000000000000', nextRef(), Number(ok)], STAKE),
        ),
      ).toBe('ZeroRecipient');
      expect(await revertName(sim(ANVIL_KEYS[1], 'deposit', [SENDER.address, nextRef(), Number(ok)], STAKE))).toBe(
        'SelfStake',
      );
      const latest = await now();
      expect(
        await revertName(sim(ANVIL_KEYS[1], 'deposit', [RECIPIENT.address, nextRef(), Number(latest)], STAKE)),
      ).toBe('BadDeadline');
      // the boundary, with the block's time pinned: a deadline of that very second is refused, the next one is not
      await at(t);
      expect(await revertName(write(ANVIL_KEYS[1], 'deposit', [RECIPIENT.address, nextRef(), Number(t)], STAKE))).toBe(
        'BadDeadline',
      );
      await at(t);
      const soonest = await deposit({ deadline: t + 1n });
      expect((await stake(soonest.id))[3]).toBe(Number(t + 1n));
      await at(t);
      expect(
        await revertName(
          write(ANVIL_KEYS[1], 'deposit', [RECIPIENT.address, nextRef(), Number(t + 30n * DAY + 1n)], STAKE),
        ),
      ).toBe('BadDeadline');
      // exactly 30 days is the longest lock allowed
      await at(t);
      const { id } = await deposit({ deadline: t + 30n * DAY });
      expect((await stake(id))[4]).toBe(1);
      // the largest amount a uint96 holds is accepted
      const big = await deposit({ value: maxUint96 });
      expect((await stake(big.id))[1]).toBe(maxUint96);
    });

    it('a deposit with the same sender, recipient and ref is refused, also after it was settled', async () => {
      const { id, ref } = await deposit();
      expect(
        await revertName(sim(ANVIL_KEYS[1], 'deposit', [RECIPIENT.address, ref, Number((await now()) + DAY)], STAKE)),
      ).toBe('StakeExists');
      await write(ANVIL_KEYS[2], 'release', [id]);
      expect(
        await revertName(sim(ANVIL_KEYS[1], 'deposit', [RECIPIENT.address, ref, Number((await now()) + DAY)], STAKE)),
      ).toBe('StakeExists');
      // the same ref from another sender is another stake
      const other = await deposit({ ref, key: ANVIL_KEYS[3] });
      expect(other.id).not.toBe(id);
    });

    it('release by the recipient pays the sender back, once; nobody else can release', async () => {
      const { id } = await deposit();
      expect(await revertName(sim(ANVIL_KEYS[1], 'release', [id]))).toBe('NotRecipient');
      expect(await revertName(sim(ANVIL_KEYS[3], 'release', [id]))).toBe('NotRecipient');
      const before = await balance(SENDER.address);
      const receipt = await write(ANVIL_KEYS[2], 'release', [id]);
      expect(await balance(SENDER.address)).toBe(before + STAKE);
      expect((await stake(id))[4]).toBe(2);
      const settled = await c.pub.getContractEvents({
        address: c.escrow,
        abi: ESCROW_ABI,
        eventName: 'Settled',
        fromBlock: receipt.blockNumber,
      });
      expect(settled.map((l) => l.args)).toEqual([{ id, status: 2, to: SENDER.address, amount: STAKE }]);
      expect(await revertName(sim(ANVIL_KEYS[2], 'release', [id]))).toBe('NotActive');
      expect(await revertName(sim(ANVIL_KEYS[2], 'forfeit', [id]))).toBe('NotActive');
      expect(await revertName(sim(ANVIL_KEYS[3], 'refund', [id]))).toBe('NotActive');
      expect(await revertName(sim(ANVIL_KEYS[2], 'release', [nextRef()]))).toBe('NotActive');
    });

    it('forfeit gives the stake to the recipient up to deadline − 1, not at the deadline; once only', async () => {
      const t = (await now()) + 100n;
      await at(t);
      const a = await deposit({ deadline: t + DAY });
      await at(t);
      const b = await deposit({ deadline: t + DAY });
      expect(await revertName(sim(ANVIL_KEYS[1], 'forfeit', [a.id]))).toBe('NotRecipient');
      const before = await balance(RECIPIENT.address);
      await at(t + DAY - 1n);
      const receipt = await write(ANVIL_KEYS[2], 'forfeit', [a.id]);
      expect(await balance(RECIPIENT.address)).toBe(before + STAKE - receipt.gasUsed * receipt.effectiveGasPrice);
      expect((await stake(a.id))[4]).toBe(3);
      expect(await revertName(sim(ANVIL_KEYS[2], 'forfeit', [a.id]))).toBe('NotActive');
      await at(t + DAY);
      expect(await revertName(write(ANVIL_KEYS[2], 'forfeit', [b.id]))).toBe('DeadlinePassed');
      // the signed way meets the same deadline
      await at(t + DAY);
      expect(
        await revertName(write(ANVIL_KEYS[3], 'forfeitWithSig', [b.id, await signAs(ANVIL_KEYS[2], 'Forfeit', b.id)])),
      ).toBe('DeadlinePassed');
      expect((await stake(b.id))[4]).toBe(1);
    });

    it('refund: not at deadline − 1, by anyone at the deadline, back to the sender, once', async () => {
      const t = (await now()) + 100n;
      await at(t);
      const { id } = await deposit({ deadline: t + DAY });
      await at(t + DAY - 1n);
      expect(await revertName(write(ANVIL_KEYS[3], 'refund', [id]))).toBe('NotDue');
      const before = await balance(SENDER.address);
      await at(t + DAY);
      await write(ANVIL_KEYS[3], 'refund', [id]);
      expect(await balance(SENDER.address)).toBe(before + STAKE);
      expect((await stake(id))[4]).toBe(4);
      expect(await revertName(sim(ANVIL_KEYS[3], 'refund', [id]))).toBe('NotActive');
      expect(await revertName(sim(ANVIL_KEYS[2], 'release', [id]))).toBe('NotActive');
    });

    it("releaseWithSig and forfeitWithSig take the recipient's EIP-712 signature from anyone", async () => {
      const a = await deposit();
      const before = await balance(SENDER.address);
      await write(ANVIL_KEYS[3], 'releaseWithSig', [a.id, await signAs(ANVIL_KEYS[2], 'Release', a.id)]);
      expect(await balance(SENDER.address)).toBe(before + STAKE);
      expect((await stake(a.id))[4]).toBe(2);
      const b = await deposit();
      const recipientBefore = await balance(RECIPIENT.address);
      await write(ANVIL_KEYS[3], 'forfeitWithSig', [b.id, await signAs(ANVIL_KEYS[2], 'Forfeit', b.id)]);
      expect(await balance(RECIPIENT.address)).toBe(recipientBefore + STAKE);
      expect((await stake(b.id))[4]).toBe(3);
      expect(
        await revertName(sim(ANVIL_KEYS[3], 'releaseWithSig', [a.id, await signAs(ANVIL_KEYS[2], 'Release', a.id)])),
      ).toBe('NotActive');
    });

    it('refuses signatures for another chain, another contract, another id, the other action, by the sender, or malformed', async () => {
      const { id } = await deposit();
      const other = await deposit();
      const cases: [string, Hex, 'releaseWithSig' | 'forfeitWithSig'][] = [
        ['wrong chain', await signAs(ANVIL_KEYS[2], 'Release', id, { chainId: 1 }), 'releaseWithSig'],
        [
          'wrong contract',
          await signAs(ANVIL_KEYS[2], 'Release', id, { verifyingContract: STRANGER.address }),
          'releaseWithSig',
        ],
        ['wrong chain (forfeit)', await signAs(ANVIL_KEYS[2], 'Forfeit', id, { chainId: 25 }), 'forfeitWithSig'],
        [
          'wrong contract (forfeit)',
          await signAs(ANVIL_KEYS[2], 'Forfeit', id, { verifyingContract: STRANGER.address }),
          'forfeitWithSig',
        ],
        ['another id', await signAs(ANVIL_KEYS[2], 'Release', other.id), 'releaseWithSig'],
        ['forfeit signature used to release', await signAs(ANVIL_KEYS[2], 'Forfeit', id), 'releaseWithSig'],
        ['release signature used to forfeit', await signAs(ANVIL_KEYS[2], 'Release', id), 'forfeitWithSig'],
        ['signed by the sender', await signAs(ANVIL_KEYS[1], 'Release', id), 'releaseWithSig'],
        ['malformed', '0x1234', 'releaseWithSig'],
        ['all zero', `0x${'00'.repeat(65)}`, 'forfeitWithSig'],
      ];
      const outcomes = await Promise.all(
        cases.map(async ([, sig, fn]) => revertName(sim(ANVIL_KEYS[3], fn, [id, sig]))),
      );
      expect(Object.fromEntries(cases.map(([name], i) => [name, outcomes[i]]))).toEqual(
        Object.fromEntries(cases.map(([name]) => [name, 'BadSignature'])),
      );
      expect((await stake(id))[4]).toBe(1);
    });

    it('a receiver that re-enters is paid once, and one that refuses payment leaves the stake active', async () => {
      const helper = compileContract('contracts/test/ReentrantStaker.sol', 'ReentrantStaker');
      const deployer = c.wallet(ANVIL_KEYS[4]);
      const deployHash = await deployer.deployContract({
        abi: helper.abi,
        bytecode: helper.bytecode,
        args: [c.escrow],
      });
      const staker = (await c.pub.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
      // another sender's stake is in the escrow too: what a second payout would take
      await deposit();
      const t = (await now()) + 100n;
      await at(t);
      const hash = await deployer.writeContract({
        address: staker,
        abi: helper.abi,
        functionName: 'stake',
        args: [RECIPIENT.address, nextRef(), Number(t + DAY)],
        value: STAKE,
      });
      expect((await c.pub.waitForTransactionReceipt({ hash })).status).toBe('success');
      const id = (await c.pub.readContract({ address: staker, abi: helper.abi, functionName: 'id' })) as Hex;
      expect(await balance(c.escrow)).toBe(2n * STAKE);

      await deployer.writeContract({ address: staker, abi: helper.abi, functionName: 'setRefuse', args: [true] });
      await at(t + DAY);
      expect(await revertName(write(ANVIL_KEYS[3], 'refund', [id]))).toBe('TransferFailed');
      expect((await stake(id))[4]).toBe(1);

      await deployer.writeContract({ address: staker, abi: helper.abi, functionName: 'setRefuse', args: [false] });
      await write(ANVIL_KEYS[3], 'refund', [id]);
      const read = (fn: string) => c.pub.readContract({ address: staker, abi: helper.abi, functionName: fn });
      expect({
        payments: await read('payments'),
        received: await read('received'),
        reentryFailed: await read('reentryFailed'),
      }).toEqual({ payments: 1n, received: STAKE, reentryFailed: true });
      expect(await balance(c.escrow)).toBe(STAKE);
      expect((await stake(id))[4]).toBe(4);
    });

    it('gas: release, forfeit and refund stay near the measured sketch', async () => {
      const a = await deposit();
      const b = await deposit();
      const t = await now();
      const d = await deposit({ deadline: t + 10n });
      const release = await write(ANVIL_KEYS[2], 'release', [a.id]);
      const forfeit = await write(ANVIL_KEYS[2], 'forfeit', [b.id]);
      await at(t + 10n);
      const refund = await write(ANVIL_KEYS[3], 'refund', [d.id]);
      expect({
        release: release.gasUsed < 60_000n,
        forfeit: forfeit.gasUsed < 60_000n,
        refund: refund.gasUsed < 60_000n,
      }).toEqual({ release: true, forfeit: true, refund: true });
    });
  },
);
