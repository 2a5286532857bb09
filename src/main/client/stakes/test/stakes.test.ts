/**
 * Stakes end to end on a local chain: profiles pay a stake gate from their own wallets (the
 * vault signs), the recipient accepts (release), marks spam (forfeit) or ignores it (refund
 * after the deadline), and every balance is checked to the wei against the gas paid.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseEther, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCROW_ABI } from '../../../contracts/escrow-artifact.js';
import { ANVIL_MISSING } from '../../../devchain/anvil.js';
import { startLocalChain, type LocalChain } from '../../../devchain/local-chain.js';
import { cleanup, cli, cliOk, newProfile, startRelay, tempDir, type Relay } from '../../test/harness.js';

const why = ANVIL_MISSING ? ` (skipped: ${ANVIL_MISSING})` : '';
const STAKE = '0.05';
const STAKE_WEI = parseEther(STAKE);
const DAY_S = 86_400;

describe.skipIf(ANVIL_MISSING !== null)(`paying stakes from the client${why}`, () => {
  let chain: LocalChain;
  let relay: Relay;
  let bob: Awaited<ReturnType<typeof newProfile>>;

  /** A profile with a fresh wallet holding `eth` on the chain. */
  async function funded(eth = '1') {
    const key = generatePrivateKey();
    await chain.test.setBalance({ address: privateKeyToAccount(key).address, value: parseEther(eth) });
    return newProfile(relay.url, { privateKey: key });
  }

  const balance = (address: string) => chain.pub.getBalance({ address: address as Hex });
  const onChainStatus = async (id: string) =>
    (
      await chain.pub.readContract({
        address: chain.escrow,
        abi: ESCROW_ABI,
        functionName: 'stakes',
        args: [id as Hex],
      })
    )[4];

  /** What `address` paid in gas in blocks after `fromBlock`. */
  async function gasPaid(address: string, fromBlock: bigint): Promise<bigint> {
    let total = 0n;
    const head = await chain.pub.getBlockNumber({ cacheTime: 0 });
    for (let n = fromBlock + 1n; n <= head; n++) {
      const block = await chain.pub.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) {
        if (tx.from.toLowerCase() !== address) continue;
        const r = await chain.pub.getTransactionReceipt({ hash: tx.hash });
        total += r.gasUsed * r.effectiveGasPrice;
      }
    }
    return total;
  }

  /** A message from `sender` to bob held back by his gate, paid for. */
  async function paidRequest(sender: Awaited<ReturnType<typeof newProfile>>, text: string) {
    const { outcome } = await sender.m.messages.sendAndWait(`direct:${bob.address}`, text);
    expect(outcome).toMatchObject({ routed: 'stake-gate', stakeRequired: STAKE });
    expect(outcome.stakeQuote?.amountWei).toBe(STAKE_WEI.toString());
    const paid = await sender.m.stakes.pay(outcome.messageId);
    expect(paid.message).toMatchObject({ id: outcome.messageId, state: 'sent', routed: 'request' });
    expect(paid.stake).toMatchObject({
      role: 'sent',
      peer: bob.address,
      amountWei: STAKE_WEI.toString(),
      status: 'active',
      released: false,
      refundable: false,
    });
    return paid.stake!;
  }

  beforeAll(async () => {
    chain = await startLocalChain();
    relay = await startRelay({
      stake: {
        rpcUrls: [chain.anvil.rpcUrl],
        chainId: chain.anvil.chainId,
        escrow: chain.escrow,
        confirmations: 1,
        publicRpcUrls: [chain.anvil.rpcUrl],
      },
    });
    bob = await funded('1');
    await bob.m.account.setPolicy({ unknownSenders: 'stake-gate', stake: STAKE });
  }, 300_000);
  afterAll(async () => {
    await cleanup();
    await chain?.stop();
  });

  it("shows the relay's chain, its RPC URL and the balance; our own RPC URL overrides it", async () => {
    const s = await bob.m.stakes.settings();
    expect(s).toMatchObject({
      enabled: true,
      currency: 'ETH',
      chainId: chain.anvil.chainId,
      escrow: chain.escrow.toLowerCase(),
      rpcUrl: chain.anvil.rpcUrl,
      rpcUrlOverridden: false,
      balanceWei: parseEther('1').toString(),
    });
    const own = await bob.m.stakes.setRpcUrl(chain.anvil.chainId, 'http://127.0.0.1:1');
    expect(own).toMatchObject({ rpcUrl: 'http://127.0.0.1:1', rpcUrlOverridden: true, balanceWei: null });
    expect(own.balanceError).toMatch(/cannot be reached at http:\/\/127\.0\.0\.1:1/);
    expect(await bob.m.stakes.setRpcUrl(chain.anvil.chainId, null)).toMatchObject({
      rpcUrl: chain.anvil.rpcUrl,
      rpcUrlOverridden: false,
    });
  });

  it('pay → accept: the request arrives with its stake; the sender collects it back, down only the gas', async () => {
    const alice = await funded('1');
    const start = await chain.pub.getBlockNumber({ cacheTime: 0 });
    const before = await balance(alice.address);
    const stake = await paidRequest(alice, 'hello bob, here is my stake');
    expect(await onChainStatus(stake.id)).toBe(1);

    await bob.m.syncPass();
    expect(bob.m.contacts.listRequests().map((r) => [r.address, r.intro])).toEqual([
      [alice.address, 'hello bob, here is my stake'],
    ]);
    expect(await bob.m.stakes.list('received')).toEqual([
      expect.objectContaining({
        id: stake.id,
        role: 'received',
        peer: alice.address,
        status: 'active',
        released: false,
      }),
    ]);

    await bob.m.contacts.acceptRequest({ address: alice.address });
    expect((await bob.m.stakes.list('received'))[0]).toMatchObject({ id: stake.id, released: true });
    expect((await alice.m.stakes.list('sent'))[0]).toMatchObject({ id: stake.id, released: true, refundable: true });

    expect(await alice.m.stakes.refund(stake.id)).toMatchObject({ id: stake.id, status: 'released' });
    expect(await onChainStatus(stake.id)).toBe(2);
    const gas = await gasPaid(alice.address, start);
    expect(gas).toBeGreaterThan(0n);
    expect(await balance(alice.address)).toBe(before - gas);
    await expect(alice.m.stakes.refund(stake.id)).rejects.toThrow(/already released/);
  }, 60_000);

  it('spam: the recipient keeps the stake (less his gas) and blocks the sender', async () => {
    const carol = await funded('1');
    const stake = await paidRequest(carol, 'buy my stuff');
    await bob.m.syncPass();
    const start = await chain.pub.getBlockNumber({ cacheTime: 0 });
    const before = await balance(bob.address);
    await bob.m.handlers()['requests.spam']({ address: carol.address });
    expect(await onChainStatus(stake.id)).toBe(3);
    expect(await balance(bob.address)).toBe(before + STAKE_WEI - (await gasPaid(bob.address, start)));
    expect((await bob.m.stakes.list('received')).find((s) => s.id === stake.id)).toMatchObject({ status: 'forfeited' });
    expect(bob.m.contacts.listRequests().map((r) => r.address)).not.toContain(carol.address);
    await expect(carol.m.stakes.refund(stake.id)).rejects.toThrow(/already forfeited/);
  }, 60_000);

  it('a short balance or an unreachable chain is a clear error and pays nothing', async () => {
    const poor = await funded('0.01');
    const { outcome } = await poor.m.messages.sendAndWait(`direct:${bob.address}`, 'I cannot afford this');
    await expect(poor.m.stakes.pay(outcome.messageId)).rejects.toMatchObject({
      code: 'insufficient-funds',
      message: expect.stringMatching(/holds 0\.01 ETH; this needs 0\.05 ETH/),
    });
    const offline = await funded('1');
    const sent = await offline.m.messages.sendAndWait(`direct:${bob.address}`, 'the chain is away');
    await offline.m.stakes.setRpcUrl(chain.anvil.chainId, 'http://127.0.0.1:1');
    await expect(offline.m.stakes.pay(sent.outcome.messageId)).rejects.toMatchObject({ code: 'chain-unreachable' });
    expect(await balance(offline.address)).toBe(parseEther('1'));
    expect(await balance(poor.address)).toBe(parseEther('0.01'));
  }, 60_000);

  it('the CLI: send --stake pays (within its limit), stakes lists, accept releases, stake refund collects', async () => {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address.toLowerCase();
    await chain.test.setBalance({ address: address as Hex, value: parseEther('1') });
    const profile = tempDir('cli-stake');
    await cliOk(profile, ['init', '--relay', relay.url, '--private-key-env', 'WALLET_KEY'], { WALLET_KEY: key });

    const tooMuch = await cli(profile, ['send', bob.address, 'hi', '--stake', '0.01']);
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toMatch(/they ask for 0\.05 ETH, more than --stake 0\.01; nothing was paid/i);
    const sent = await cliOk<{ state: string; routed: string; stake: { id: string; amountWei: string } }>(profile, [
      'send',
      bob.address,
      'hi, staked from the CLI',
      '--stake',
    ]);
    expect(sent).toMatchObject({ state: 'sent', routed: 'request', stake: { amountWei: STAKE_WEI.toString() } });
    const listed = await cliOk<Array<{ id: string; status: string }>>(profile, ['stakes', '--sent']);
    expect(listed).toEqual([expect.objectContaining({ id: sent.stake.id, status: 'active' })]);

    const notYet = await cli(profile, ['stake', 'refund', sent.stake.id]);
    expect(notYet.code).toBe(1);
    expect(notYet.stderr).toMatch(/not refundable yet/i);
    await bob.m.syncPass();
    await bob.m.contacts.acceptRequest({ address });
    const refunded = await cliOk<{ status: string }>(profile, ['stake', 'refund', sent.stake.id]);
    expect(refunded.status).toBe('released');
    expect(await onChainStatus(sent.stake.id)).toBe(2);
  }, 300_000);

  // last: it moves the chain's clock past every deadline
  it('ignored: refundable only after the deadline, then back to the sender less the gas', async () => {
    const erin = await funded('1');
    const start = await chain.pub.getBlockNumber({ cacheTime: 0 });
    const before = await balance(erin.address);
    const stake = await paidRequest(erin, 'you will ignore this');
    expect(stake.deadline - Math.floor(Date.now() / 1000)).toBeGreaterThan(7 * DAY_S - 120);
    await expect(erin.m.stakes.refund(stake.id)).rejects.toThrow(/not refundable yet/);
    await bob.m.syncPass();
    await expect(bob.m.stakes.refund(stake.id)).rejects.toThrow(/no stake of yours|only the sender/);

    await chain.test.increaseTime({ seconds: stake.deadline - Math.floor(Date.now() / 1000) + 60 });
    await chain.test.mine({ blocks: 1 });
    // past the deadline, spam is too late: the stake can only go back
    await expect(bob.m.handlers()['requests.spam']({ address: erin.address })).rejects.toMatchObject({
      code: 'chain-refused',
    });
    expect(await erin.m.stakes.refund(stake.id)).toMatchObject({ status: 'refunded' });
    expect(await onChainStatus(stake.id)).toBe(4);
    expect(await balance(erin.address)).toBe(before - (await gasPaid(erin.address, start)));
  }, 60_000);
});
