import { type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCROW_ABI } from '../../contracts/escrow-artifact.js';
import { ANVIL_KEYS, ANVIL_MISSING } from '../../devchain/anvil.js';
import { startLocalChain, type LocalChain } from '../../devchain/local-chain.js';
import { runAdmin } from '../admin.js';
import { parseInvocation, UsageError } from '../cli-args.js';
import { highSTwin } from '../../test-support/high-s.js';
import { call, envelopeTo, signIn, startRelay, type TestRelay, type TestUser } from './harness.js';

const anvilSuite = describe.skipIf(ANVIL_MISSING !== null);
const why = ANVIL_MISSING ? ` (skipped: ${ANVIL_MISSING})` : '';

/** A fresh recipient who asks unknown senders for `stake`. */
async function gatedRecipient(relay: TestRelay, stake = '0.01'): Promise<TestUser> {
  const bob = await signIn(relay.url);
  const set = await call(relay.url, 'PUT', '/api/v1/me/policy', {
    auth: bob.apiKey,
    body: { unknownSenders: 'stake-gate', stake },
  });
  expect(set.status).toBe(200);
  return bob;
}

async function deposit(
  c: LocalChain,
  key: Hex,
  quote: { recipient: string; ref: string; amountWei: string; minDeadline: number },
  opts: { amountWei?: bigint; deadline?: number } = {},
) {
  const hash = await c.wallet(key).writeContract({
    address: c.escrow,
    abi: ESCROW_ABI,
    functionName: 'deposit',
    args: [quote.recipient as Hex, quote.ref as Hex, opts.deadline ?? quote.minDeadline],
    value: opts.amountWei ?? BigInt(quote.amountWei),
  });
  const receipt = await c.pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

const send = (relay: TestRelay, from: TestUser, body: unknown) =>
  call(relay.url, 'POST', '/api/v1/envelopes', { auth: from.apiKey, body });
const pull = (relay: TestRelay, who: TestUser) => call(relay.url, 'GET', '/api/v1/envelopes', { auth: who.apiKey });

describe('stakes on a relay without a chain', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay();
  });
  afterAll(async () => {
    await relay.close();
  });

  it('says so in /stake-config, refuses the stake-gate policy with 409, and routes such recipients request', async () => {
    const cfg = await call(relay.url, 'GET', '/api/v1/stake-config');
    expect(cfg.status).toBe(200);
    expect(cfg.body).toMatchObject({ enabled: false, chainId: null, escrow: null, currency: 'ETH' });
    const bob = await signIn(relay.url);
    const set = await call(relay.url, 'PUT', '/api/v1/me/policy', {
      auth: bob.apiKey,
      body: { unknownSenders: 'stake-gate', stake: '0.01' },
    });
    expect(set.status).toBe(409);
    expect(set.body.code).toBe('stake-unavailable');
    // a policy stored while the relay had a chain has no teeth without one
    await relay.store.setPolicy(bob.address, 'stake-gate', '0.01');
    const alice = await signIn(relay.url);
    const res = await send(relay, alice, envelopeTo(bob));
    expect(res.status).toBe(200);
    expect(res.body.routed).toBe('request');
    expect(res.body.stakeQuote).toBeUndefined();
    const list = await call(relay.url, 'GET', '/api/v1/stakes', { auth: bob.apiKey });
    expect(list.status).toBe(409);
  });
});

anvilSuite(`stakes on a relay with anvil${why}`, () => {
  let c: LocalChain;
  let relay: TestRelay;
  let slow: TestRelay;

  beforeAll(async () => {
    c = await startLocalChain();
    const stake = {
      rpcUrls: [c.anvil.rpcUrl],
      chainId: c.anvil.chainId,
      escrow: c.escrow,
      confirmations: 1,
      publicRpcUrls: [c.anvil.rpcUrl],
    };
    relay = await startRelay({ stake });
    slow = await startRelay({ stake: { ...stake, confirmations: 2 } });
  }, 60_000);
  afterAll(async () => {
    await relay?.close();
    await slow?.close();
    await c?.stop();
  });

  it('publishes its chain in /stake-config', async () => {
    const cfg = await call(relay.url, 'GET', '/api/v1/stake-config');
    expect(cfg.body).toEqual({
      enabled: true,
      currency: 'ETH',
      chainId: c.anvil.chainId,
      escrow: c.escrow.toLowerCase(),
      confirmations: 1,
      minLockSeconds: 7 * 86_400,
      maxLockSeconds: 30 * 86_400,
      rpcUrls: [c.anvil.rpcUrl],
    });
  });

  it('refuses to start on an address without the escrow, another contract, or another chain id', async () => {
    const base = { rpcUrls: [c.anvil.rpcUrl], chainId: c.anvil.chainId, confirmations: 1, publicRpcUrls: [] };
    await expect(
      startRelay({ stake: { ...base, escrow: privateKeyToAccount(ANVIL_KEYS[4]).address } }),
    ).rejects.toThrow(/no contract at/);
    // a contract that is not ours: a minimal one that returns its own code
    const hash = await c
      .wallet(ANVIL_KEYS[4])
      .deployContract({ abi: [], bytecode: '0x600a600c600039600a6000f3602a60005260206000f3' });
    const other = (await c.pub.waitForTransactionReceipt({ hash })).contractAddress!;
    await expect(startRelay({ stake: { ...base, escrow: other } })).rejects.toThrow(
      /is not this relay's RelayStakeEscrow/,
    );
    await expect(startRelay({ stake: { ...base, escrow: c.escrow, chainId: 25 } })).rejects.toThrow(
      /serves chain 31337, not --stake-chain-id 25/,
    );
  });

  it('reads the chain through the next --stake-rpc when the first does not answer', async () => {
    // port 1 on loopback: nothing listens, the connection is refused at once
    const r = await startRelay({
      stake: {
        rpcUrls: ['http://127.0.0.1:1', c.anvil.rpcUrl],
        chainId: c.anvil.chainId,
        escrow: c.escrow,
        confirmations: 1,
        publicRpcUrls: [],
      },
    });
    try {
      const bob = await gatedRecipient(r);
      const alice = await signIn(r.url, privateKeyToAccount(ANVIL_KEYS[3]));
      const quote = (await send(r, alice, envelopeTo(bob))).body.stakeQuote;
      await deposit(c, ANVIL_KEYS[3], quote);
      const staked = await send(r, alice, envelopeTo(bob, { stakeRef: quote.ref }));
      expect([staked.status, staked.body.routed, staked.body.envelope?.stake?.status]).toEqual([
        200,
        'request',
        'active',
      ]);
    } finally {
      await r.close();
    }
  });

  it('quote → deposit → staked send is delivered as a request carrying the stake; a replay is refused as used', async () => {
    const bob = await gatedRecipient(relay, '0.02');
    const alice = await signIn(relay.url, privateKeyToAccount(ANVIL_KEYS[1]));
    const gated = await send(relay, alice, envelopeTo(bob));
    expect(gated.status).toBe(200);
    expect(gated.body).toMatchObject({ routed: 'stake-gate', stakeRequired: '0.02', stakeCurrency: 'ETH' });
    const quote = gated.body.stakeQuote;
    expect(quote).toMatchObject({
      chainId: c.anvil.chainId,
      escrow: c.escrow.toLowerCase(),
      amountWei: '20000000000000000',
      recipient: bob.address,
    });
    expect(quote.ref).toMatch(/^0x[0-9a-f]{64}$/);
    expect(quote.maxDeadline - quote.minDeadline).toBe(23 * 86_400);
    expect(Date.parse(quote.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect((await pull(relay, bob)).body.envelopes).toEqual([]);

    await deposit(c, ANVIL_KEYS[1], quote);
    const staked = await send(relay, alice, envelopeTo(bob, { stakeRef: quote.ref }));
    expect(staked.status).toBe(200);
    expect(staked.body.routed).toBe('request');
    const stake = staked.body.envelope.stake;
    expect(stake).toMatchObject({
      chainId: c.anvil.chainId,
      escrow: c.escrow.toLowerCase(),
      amountWei: '20000000000000000',
      deadline: quote.minDeadline,
      status: 'active',
    });
    const inbox = (await pull(relay, bob)).body.envelopes;
    expect(inbox.map((e: { routed: string; stake: unknown }) => [e.routed, e.stake])).toEqual([['request', stake]]);

    const replay = await send(relay, alice, envelopeTo(bob, { stakeRef: quote.ref }));
    expect(replay.body).toMatchObject({ routed: 'stake-gate', stakeStatus: 'used' });
    expect(replay.body.stakeQuote).toBeUndefined();
    expect((await pull(relay, bob)).body.envelopes).toHaveLength(1);

    const sent = await call(relay.url, 'GET', '/api/v1/stakes?role=sent', { auth: alice.apiKey });
    expect(
      sent.body.stakes.map((s: { id: string; status: string; recipient: string }) => [s.id, s.status, s.recipient]),
    ).toEqual([[stake.id, 'active', bob.address]]);
    const received = await call(relay.url, 'GET', '/api/v1/stakes?role=received', { auth: bob.apiKey });
    expect(received.body.stakes.map((s: { id: string }) => s.id)).toEqual([stake.id]);
    expect((await call(relay.url, 'GET', '/api/v1/stakes?role=received', { auth: alice.apiKey })).body.stakes).toEqual(
      [],
    );
    // without a role: both sides' stakes
    for (const who of [alice, bob]) {
      const both = await call(relay.url, 'GET', '/api/v1/stakes', { auth: who.apiKey });
      expect(both.status).toBe(200);
      expect(both.body.stakes.map((s: { id: string }) => s.id)).toEqual([stake.id]);
    }
  });

  it('one stake opens one request: one envelope per recipient device, not two to the same device', async () => {
    const bob = await gatedRecipient(relay);
    const alice = await signIn(relay.url, privateKeyToAccount(ANVIL_KEYS[2]));
    const quote = (await send(relay, alice, envelopeTo(bob))).body.stakeQuote;
    await deposit(c, ANVIL_KEYS[2], quote);
    const res = await send(relay, alice, [
      envelopeTo(bob, { stakeRef: quote.ref }),
      envelopeTo(bob, { stakeRef: quote.ref }),
    ]);
    expect(res.body.results.map((r: { routed: string; stakeStatus?: string }) => [r.routed, r.stakeStatus])).toEqual([
      ['request', undefined],
      ['stake-gate', 'used'],
    ]);
  });

  it('refuses a deposit too small, a deadline outside the quote, a ref of someone else, a late quote', async () => {
    const bob = await gatedRecipient(relay);
    const alice = await signIn(relay.url, privateKeyToAccount(ANVIL_KEYS[3]));
    const eve = await signIn(relay.url);
    const quoteOf = async () => (await send(relay, alice, envelopeTo(bob))).body.stakeQuote;

    const q1 = await quoteOf();
    await deposit(c, ANVIL_KEYS[3], q1, { amountWei: BigInt(q1.amountWei) - 1n });
    expect((await send(relay, alice, envelopeTo(bob, { stakeRef: q1.ref }))).body).toMatchObject({
      routed: 'stake-gate',
      stakeStatus: 'insufficient',
    });

    const q2 = await quoteOf();
    await deposit(c, ANVIL_KEYS[3], q2, { deadline: q2.minDeadline - 1 });
    expect((await send(relay, alice, envelopeTo(bob, { stakeRef: q2.ref }))).body).toMatchObject({
      routed: 'stake-gate',
      stakeStatus: 'bad-deadline',
    });

    const q3 = await quoteOf();
    expect((await send(relay, eve, envelopeTo(bob, { stakeRef: q3.ref }))).body).toMatchObject({
      routed: 'stake-gate',
      stakeStatus: 'not-found',
    });
    expect((await send(relay, alice, envelopeTo(bob, { stakeRef: q3.ref }))).body).toMatchObject({
      routed: 'stake-gate',
      stakeStatus: 'not-found',
    });

    const q4 = await quoteOf();
    await deposit(c, ANVIL_KEYS[3], q4);
    relay.clock.now = Date.now() + 31 * 60_000;
    try {
      expect((await send(relay, alice, envelopeTo(bob, { stakeRef: q4.ref }))).body).toMatchObject({
        routed: 'stake-gate',
        stakeStatus: 'expired-quote',
      });
    } finally {
      relay.clock.now = null;
    }
    expect((await pull(relay, bob)).body.envelopes).toEqual([]);
  });

  it('a deposit fewer blocks deep than required is unconfirmed until a block is mined', async () => {
    const bob = await gatedRecipient(slow);
    const alice = await signIn(slow.url, privateKeyToAccount(ANVIL_KEYS[1]));
    const quote = (await send(slow, alice, envelopeTo(bob))).body.stakeQuote;
    await deposit(c, ANVIL_KEYS[1], quote);
    expect((await send(slow, alice, envelopeTo(bob, { stakeRef: quote.ref }))).body).toMatchObject({
      routed: 'stake-gate',
      stakeStatus: 'unconfirmed',
    });
    // refused, not held back: nothing waits for the recipient, and the ref is still unused
    expect((await pull(slow, bob)).body.envelopes).toEqual([]);
    await c.test.mine({ blocks: 1 });
    expect((await send(slow, alice, envelopeTo(bob, { stakeRef: quote.ref }))).body.routed).toBe('request');
    expect((await pull(slow, bob)).body.envelopes).toHaveLength(1);
  });

  it('a deposit that the chain dropped (evm_revert) is refused', async () => {
    const bob = await gatedRecipient(relay);
    const alice = await signIn(relay.url, privateKeyToAccount(ANVIL_KEYS[2]));
    const quote = (await send(relay, alice, envelopeTo(bob))).body.stakeQuote;
    const snapshot = await c.test.snapshot();
    await deposit(c, ANVIL_KEYS[2], quote);
    await c.test.revert({ id: snapshot });
    expect((await send(relay, alice, envelopeTo(bob, { stakeRef: quote.ref }))).body).toMatchObject({
      routed: 'stake-gate',
      stakeStatus: 'not-found',
    });
    expect((await pull(relay, bob)).body.envelopes).toEqual([]);
  });

  it("release: the recipient's checked signature is stored for the sender, who settles it on chain", async () => {
    const bobAccount = privateKeyToAccount(generatePrivateKey());
    const bob = await signIn(relay.url, bobAccount);
    await call(relay.url, 'PUT', '/api/v1/me/policy', { auth: bob.apiKey, body: { unknownSenders: 'stake-gate' } });
    const alice = await signIn(relay.url, privateKeyToAccount(ANVIL_KEYS[4]));
    const quote = (await send(relay, alice, envelopeTo(bob))).body.stakeQuote;
    await deposit(c, ANVIL_KEYS[4], quote);
    const id = (await send(relay, alice, envelopeTo(bob, { stakeRef: quote.ref }))).body.envelope.stake.id as Hex;
    const domain = { name: 'RelayStakeEscrow', version: '1', chainId: c.anvil.chainId, verifyingContract: c.escrow };
    const sign = (account: typeof bobAccount, primaryType: 'Release' | 'Forfeit', d = domain) =>
      account.signTypedData({
        domain: d,
        types: { [primaryType]: [{ name: 'id', type: 'bytes32' }] },
        primaryType,
        message: { id },
      });
    const release = (who: TestUser, signature: string) =>
      call(relay.url, 'POST', `/api/v1/stakes/${id}/release`, { auth: who.apiKey, body: { signature } });

    expect((await release(alice, await sign(bobAccount, 'Release'))).status).toBe(403);
    for (const bad of [
      await sign(bobAccount, 'Forfeit'),
      await sign(bobAccount, 'Release', { ...domain, chainId: 1 }),
      await sign(privateKeyToAccount(ANVIL_KEYS[4]), 'Release'),
      // the right signer, in the high-S form the escrow would refuse
      highSTwin(await sign(bobAccount, 'Release')),
    ]) {
      const r = await release(bob, bad);
      expect([r.status, r.body.code]).toEqual([400, 'bad-signature']);
    }
    expect(
      (await call(relay.url, 'GET', `/api/v1/stakes/${id}`, { auth: (await signIn(relay.url)).apiKey })).status,
    ).toBe(404);
    const good = await sign(bobAccount, 'Release');
    expect((await release(bob, good)).status).toBe(200);
    const seen = await call(relay.url, 'GET', `/api/v1/stakes/${id}`, { auth: alice.apiKey });
    expect(seen.body).toMatchObject({ id, status: 'active', releaseSignature: good.toLowerCase() });

    const hash = await c.wallet(ANVIL_KEYS[4]).writeContract({
      address: c.escrow,
      abi: ESCROW_ABI,
      functionName: 'releaseWithSig',
      args: [id, seen.body.releaseSignature],
    });
    expect((await c.pub.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect((await call(relay.url, 'GET', `/api/v1/stakes/${id}`, { auth: alice.apiKey })).body.status).toBe('released');
    const again = await release(bob, good);
    expect([again.status, again.body.code]).toEqual([409, 'stake-settled']);
  });
});

anvilSuite(`stakes when the chain goes away${why}`, () => {
  it('answers 503 stake-unverifiable and delivers nothing', async () => {
    const c = await startLocalChain();
    const relay = await startRelay({
      stake: {
        rpcUrls: [c.anvil.rpcUrl],
        chainId: c.anvil.chainId,
        escrow: c.escrow,
        confirmations: 1,
        publicRpcUrls: [],
      },
    });
    try {
      const bob = await gatedRecipient(relay);
      const alice = await signIn(relay.url, privateKeyToAccount(ANVIL_KEYS[1]));
      const quote = (await send(relay, alice, envelopeTo(bob))).body.stakeQuote;
      await deposit(c, ANVIL_KEYS[1], quote);
      await c.stop();
      const res = await send(relay, alice, envelopeTo(bob, { stakeRef: quote.ref }));
      expect([res.status, res.body.code]).toEqual([503, 'stake-unverifiable']);
      expect((await pull(relay, bob)).body.envelopes).toEqual([]);
      // sends that need no chain still work
      const carol = await signIn(relay.url);
      expect((await send(relay, alice, envelopeTo(carol))).body.routed).toBe('request');
    } finally {
      await relay.close();
      await c.stop();
    }
  });
});

describe('stake flags', () => {
  const serve = (...args: string[]) => parseInvocation(args);
  it('take a chain only as a whole, check each value, and offer loopback RPCs to clients by default', () => {
    const escrow = '0x' + 'ab'.repeat(20);
    const ok = serve(
      '--stake-rpc',
      'http://127.0.0.1:8545',
      '--stake-rpc',
      'https://rpc.example/v3/SECRET',
      '--stake-chain-id',
      '25',
      '--stake-escrow',
      escrow,
    );
    expect(ok.mode === 'serve' && ok.options.stake).toEqual({
      rpcUrls: ['http://127.0.0.1:8545', 'https://rpc.example/v3/SECRET'],
      chainId: 25,
      escrow,
      confirmations: 2,
      publicRpcUrls: ['http://127.0.0.1:8545'],
    });
    expect((serve() as { options: { stake: unknown } }).options.stake).toBeNull();
    for (const bad of [
      ['--stake-rpc', 'http://127.0.0.1:8545'],
      ['--stake-rpc', 'ftp://x', '--stake-chain-id', '1', '--stake-escrow', escrow],
      ['--stake-rpc', 'http://127.0.0.1:8545', '--stake-chain-id', '1', '--stake-escrow', '0x12'],
      [
        '--stake-rpc',
        'http://127.0.0.1:8545',
        '--stake-chain-id',
        '1',
        '--stake-escrow',
        escrow,
        '--stake-confirmations',
        '0',
      ],
      ['--stake-confirmations', '3'],
      ['admin', 'deploy-escrow', '--rpc', 'http://127.0.0.1:8545'],
      ['admin', 'deploy-escrow', '--rpc', 'http://127.0.0.1:8545', '--private-key-env', '0xabc'],
      ['admin', 'stats', '--rpc', 'http://127.0.0.1:8545'],
    ])
      expect(() => serve(...bad), bad.join(' ')).toThrow(UsageError);
  });
});

anvilSuite(`relay admin deploy-escrow${why}`, () => {
  it('deploys the committed escrow with a key from the environment, and a relay accepts it', async () => {
    const c = await startLocalChain();
    try {
      const inv = parseInvocation([
        'admin',
        'deploy-escrow',
        '--rpc',
        c.anvil.rpcUrl,
        '--private-key-env',
        'TEST_DEPLOYER_KEY',
      ]);
      if (inv.mode !== 'admin') throw new Error('expected an admin command');
      await expect(runAdmin(inv.options)).rejects.toThrow(/TEST_DEPLOYER_KEY is empty or not set/);
      process.env.TEST_DEPLOYER_KEY = ANVIL_KEYS[3];
      const { answer: out } = await runAdmin(inv.options);
      const escrow = /escrow deployed at (0x[0-9a-fA-F]{40}) on chain 31337/.exec(out)?.[1] as Hex;
      expect(escrow).toMatch(/^0x/);
      expect(out).toContain(`--stake-escrow ${escrow}`);
      const relay = await startRelay({
        stake: { rpcUrls: [c.anvil.rpcUrl], chainId: 31337, escrow, confirmations: 1, publicRpcUrls: [] },
      });
      expect((await call(relay.url, 'GET', '/api/v1/stake-config')).body.escrow).toBe(escrow.toLowerCase());
      await relay.close();
    } finally {
      delete process.env.TEST_DEPLOYER_KEY;
      await c.stop();
    }
  });
});
