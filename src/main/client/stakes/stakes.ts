/**
 * Paying and settling stakes (docs/protocol.md §13 Stakes) on the client side. The relay names the
 * chain and the escrow; this talks to the chain over JSON-RPC (the relay's published RPC URL,
 * or one the person set for that chain id), and every transaction and signature is made by
 * the vault: the wallet key never leaves its worker.
 *
 * - pay: a message a stake gate held back is paid for (deposit on the escrow with the relay's
 *   quote) and sent again with `stakeRef`, which the relay delivers as a contact request;
 * - release (accepting a staked request): the recipient signs `Release(id)` and gives it to the
 *   relay, which holds it for the sender; the sender submits it (`releaseWithSig`) from
 *   `refund`, which also takes an ignored stake back (`refund`) once its deadline has passed;
 * - forfeit ("spam"): the recipient calls `forfeit(id)` and keeps the stake.
 */
import type { Hex, PublicClient } from 'viem';
import type { StakeConfig, StakeQuote, StakeRecord } from '../../../shared/api/stakes.js';
import type { ChatMessage, StakeInfo, StakeSettings } from '../../../shared/domain.js';
import { formatWei } from '../../../shared/stake/amount.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import type { LocalStore } from '../store/local-store.js';
import type { FeatureHandlers } from '../core/feature-context.js';
import { MessengerError } from '../core/messenger-error.js';
import type { Outbox, SendOutcome } from '../core/outbox.js';
import { RelayError, type RelayApi } from '../network/relay-api.js';

export interface StakesDeps {
  /** the signed-in relay client */
  api: () => RelayApi;
  vault: Pick<VaultClient, 'signTransaction' | 'signTypedData'>;
  store: LocalStore;
  outbox: Pick<Outbox, 'requeue' | 'flush'>;
  me: () => { address: string };
  now?: () => number;
  onUpdated?: (m: ChatMessage) => void;
}

const K = {
  rpcUrl: (chainId: number) => `stake.rpc:${chainId}`,
  /** the last quote for a held-back message, and the deposit made for it */
  payment: (messageId: string) => `stake.payment:${messageId}`,
} as const;

interface Payment {
  quote: StakeQuote;
  txHash: string | null;
}

/** A quote this close to expiring is not worth depositing against: the send might come too late. */
const QUOTE_MARGIN_MS = 2 * 60 * 1000;
/** how often a staked send is tried again while the relay still counts the deposit unconfirmed */
const UNCONFIRMED_TRIES = 20;
const RPC_TIMEOUT_MS = 10_000;
/** the vault's first chain signature loads viem in its worker, which takes seconds on a busy machine */
const SIGN_TIMEOUT = { timeoutMs: 60_000 };

export class Stakes {
  private config: { origin: string; value: StakeConfig } | null = null;
  private client: { url: string; pub: PublicClient } | null = null;

  constructor(private readonly d: StakesDeps) {}

  handlers(): FeatureHandlers<'stakes.settings' | 'stakes.setRpcUrl' | 'stakes.list' | 'stakes.pay' | 'stakes.refund'> {
    return {
      'stakes.settings': () => this.settings(),
      'stakes.setRpcUrl': (a) => this.setRpcUrl(a.chainId, a.url),
      'stakes.list': (a) => this.list(a.role),
      'stakes.pay': (a) => this.pay(a.messageId),
      'stakes.refund': (a) => this.refund(a.id),
    };
  }

  /** Keeps a gate's quote until the person pays (or it expires); wired to the outbox. */
  noteQuote(messageId: string, quote: StakeQuote): void {
    const prev = this.payment(messageId);
    // a quote for a message already deposited for would orphan the deposit: keep the paid one
    if (prev?.txHash) return;
    this.d.store.setSetting(K.payment(messageId), JSON.stringify({ quote, txHash: null } satisfies Payment));
  }

  // =========================================================================================
  // configuration and balance

  private async stakeConfig(): Promise<StakeConfig> {
    const api = this.d.api();
    if (this.config?.origin !== api.origin) this.config = { origin: api.origin, value: await api.stakeConfig() };
    return this.config.value;
  }

  private async enabledConfig(): Promise<StakeConfig & { chainId: number; escrow: `0x${string}` }> {
    const c = await this.stakeConfig();
    if (!c.enabled || c.chainId === null || c.escrow === null)
      throw new MessengerError('stakes-unavailable', 'this relay takes no stakes (it names no chain)');
    return c as StakeConfig & { chainId: number; escrow: `0x${string}` };
  }

  private rpcUrlFor(c: StakeConfig): string | null {
    if (c.chainId === null) return null;
    return this.d.store.getSetting(K.rpcUrl(c.chainId)) ?? c.rpcUrls[0] ?? null;
  }

  /** The relay's chain, the RPC URL in use (and whether it is our own), and our balance there. */
  async settings(): Promise<StakeSettings> {
    const c = await this.stakeConfig();
    const rpcUrl = this.rpcUrlFor(c);
    const base: StakeSettings = {
      enabled: c.enabled,
      currency: c.currency,
      chainId: c.chainId,
      escrow: c.escrow,
      rpcUrl,
      rpcUrlOverridden: c.chainId !== null && this.d.store.getSetting(K.rpcUrl(c.chainId)) !== null,
      relayRpcUrls: c.rpcUrls,
      minLockSeconds: c.minLockSeconds,
      balanceWei: null,
      balanceError: null,
    };
    if (!c.enabled || rpcUrl === null) return base;
    try {
      return {
        ...base,
        balanceWei: (await (await this.chain(c)).getBalance({ address: this.d.me().address as Hex })).toString(),
      };
    } catch (e) {
      return { ...base, balanceError: (await chainLib()).chainError(e, rpcUrl).message };
    }
  }

  /** Our own RPC URL for this chain, or null to use the relay's. */
  async setRpcUrl(chainId: number, url: string | null): Promise<StakeSettings> {
    if (url !== null) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new MessengerError('bad-argument', 'the RPC URL is not a URL');
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        throw new MessengerError('bad-argument', 'the RPC URL must be http:// or https://');
    }
    this.d.store.setSetting(K.rpcUrl(chainId), url);
    this.client = null;
    return this.settings();
  }

  private async chain(c: StakeConfig): Promise<PublicClient> {
    const url = this.rpcUrlFor(c);
    if (url === null)
      throw new MessengerError('chain-unreachable', 'no RPC URL for the stake chain: set one in Settings');
    const { chainClient } = await chainLib();
    if (this.client?.url !== url) this.client = { url, pub: chainClient(url, RPC_TIMEOUT_MS) };
    return this.client.pub;
  }

  // =========================================================================================
  // listing

  async list(role?: 'sent' | 'received'): Promise<StakeInfo[]> {
    const c = await this.enabledConfig();
    const me = this.d.me().address;
    const nowS = Math.floor(this.now() / 1000);
    return (await this.d.api().stakes(role)).map((r) => stakeInfo(r, me, c, nowS));
  }

  /** The active stake `from` sent us, if any (newest first on the relay). */
  private async activeFrom(from: string): Promise<StakeRecord | null> {
    const c = await this.stakeConfig();
    if (!c.enabled) return null;
    const list = await this.d.api().stakes('received');
    return list.find((r) => r.sender.toLowerCase() === from.toLowerCase() && r.status === 'active') ?? null;
  }

  // =========================================================================================
  // paying

  /**
   * Deposits the stake the gate asked for `messageId` and sends the message again with it.
   * Resumable: a deposit already made for the message is not made twice.
   */
  async pay(messageId: string): Promise<{ message: ChatMessage; stake: StakeInfo | null }> {
    const c = await this.enabledConfig();
    const msg = this.d.store.getMessage(messageId);
    if (!msg || !msg.fromMe || !msg.conversationId.startsWith('direct:'))
      throw new MessengerError('not-found', 'no message of yours to a person with that id');
    let payment = this.payment(messageId);
    if (
      !payment?.txHash &&
      (msg.routed !== 'stake-gate' || !payment || Date.parse(payment.quote.expiresAt) - this.now() < QUOTE_MARGIN_MS)
    ) {
      if (msg.routed !== 'stake-gate')
        throw new MessengerError('bad-argument', 'that message was not held back by a stake gate');
      payment = await this.freshQuote(messageId);
    }
    const { quote } = payment;
    if (quote.chainId !== c.chainId || quote.escrow.toLowerCase() !== c.escrow.toLowerCase()) {
      throw new MessengerError('stake-refused', 'the quote names another chain or escrow than the relay publishes');
    }
    if (!payment.txHash) {
      const data = (await chainLib()).escrowCall({
        functionName: 'deposit',
        args: [quote.recipient as Hex, quote.ref as Hex, quote.minDeadline],
      });
      payment.txHash = await this.transact(c, data, BigInt(quote.amountWei), (hash) => {
        // kept before it is broadcast: a crash after this point resumes instead of paying twice
        this.d.store.setSetting(K.payment(messageId), JSON.stringify({ quote, txHash: hash } satisfies Payment));
      });
    }
    await this.confirmed(c, payment.txHash as Hex);
    const message = await this.sendStaked(messageId, quote.ref);
    const record = (await this.d.api().stakes('sent')).find((r) => r.ref.toLowerCase() === quote.ref.toLowerCase());
    return { message, stake: record ? stakeInfo(record, this.d.me().address, c, Math.floor(this.now() / 1000)) : null };
  }

  private payment(messageId: string): Payment | null {
    const raw = this.d.store.getSetting(K.payment(messageId));
    return raw ? (JSON.parse(raw) as Payment) : null;
  }

  /** Sends the held-back message once more, without a stake, for a new quote. */
  private async freshQuote(messageId: string): Promise<Payment> {
    this.d.store.setSetting(K.payment(messageId), null);
    const outcome = await this.sendOnce(messageId, undefined);
    const payment = this.payment(messageId);
    if (!payment) throw this.notDelivered(outcome, 'the relay gave no stake quote for this message');
    return payment;
  }

  private async sendOnce(messageId: string, stakeRef: string | undefined): Promise<SendOutcome | undefined> {
    if (!this.d.outbox.requeue(messageId, stakeRef))
      throw new MessengerError('not-found', 'that message cannot be sent again');
    const m = this.d.store.getMessage(messageId);
    if (m) this.d.onUpdated?.(m);
    return (await this.d.outbox.flush(true)).find((o) => o.messageId === messageId);
  }

  private async sendStaked(messageId: string, ref: string): Promise<ChatMessage> {
    for (let i = 0; ; i++) {
      const outcome = await this.sendOnce(messageId, ref);
      if (outcome?.state === 'sent' && outcome.routed !== 'stake-gate') {
        this.d.store.setSetting(K.payment(messageId), null);
        return this.d.store.getMessage(messageId)!;
      }
      // the relay reads `confirmations` deep: a fresh deposit may need another block
      if (outcome?.stakeStatus !== 'unconfirmed' || i >= UNCONFIRMED_TRIES) throw this.notDelivered(outcome, null);
      await sleep(1000);
    }
  }

  private notDelivered(outcome: SendOutcome | undefined, fallback: string | null): MessengerError {
    if (outcome?.stakeStatus)
      return new MessengerError(
        'stake-refused',
        `the relay did not accept the stake (${outcome.stakeStatus}); your deposit stays refundable after its deadline`,
      );
    if (outcome?.state === 'queued')
      return new MessengerError(
        'stake-refused',
        `the relay could not be reached to send it (${outcome.error}); it stays in the outbox and goes out with the stake`,
      );
    return new MessengerError('stake-refused', outcome?.error ?? fallback ?? 'the message was not delivered');
  }

  // =========================================================================================
  // settling

  /** Accepting a staked request: sign `Release(id)` for the sender to submit. No-op without a stake. */
  async releaseFrom(address: string): Promise<StakeRecord | null> {
    const stake = await this.activeFrom(address);
    if (!stake) return null;
    const { signature } = await this.d.vault.signTypedData({ typedData: releaseTypedData(stake) }, SIGN_TIMEOUT);
    await this.d.api().releaseStake(stake.id, signature);
    return stake;
  }

  /** "Spam": the recipient keeps the stake (a transaction from this wallet; it pays the gas). */
  async forfeitFrom(address: string): Promise<StakeInfo> {
    const c = await this.enabledConfig();
    const stake = await this.activeFrom(address);
    if (!stake) throw new MessengerError('not-found', 'no active stake from that sender');
    if (stake.deadline <= Math.floor(this.now() / 1000))
      throw new MessengerError('bad-argument', 'the stake is past its deadline: it can only go back to the sender now');
    const hash = await this.transact(
      c,
      (await chainLib()).escrowCall({ functionName: 'forfeit', args: [stake.id as Hex] }),
      0n,
    );
    await this.confirmed(c, hash);
    return stakeInfo({ ...stake, status: 'forfeited' }, this.d.me().address, c, Math.floor(this.now() / 1000));
  }

  /**
   * Takes a stake we sent back: with the recipient's release signature when they accepted,
   * or by `refund` once the deadline has passed.
   */
  async refund(id: string): Promise<StakeInfo> {
    const c = await this.enabledConfig();
    let stake: StakeRecord;
    try {
      stake = await this.d.api().stake(id.toLowerCase());
    } catch (e) {
      if (e instanceof RelayError && e.status === 404)
        throw new MessengerError('not-found', 'no stake of yours with that id');
      throw e;
    }
    const me = this.d.me().address;
    if (stake.sender.toLowerCase() !== me)
      throw new MessengerError('bad-argument', 'only the sender takes a stake back');
    if (stake.status !== 'active') throw new MessengerError('bad-argument', `the stake is already ${stake.status}`);
    let data: Hex;
    if (stake.releaseSignature) {
      data = (await chainLib()).escrowCall({
        functionName: 'releaseWithSig',
        args: [stake.id as Hex, stake.releaseSignature as Hex],
      });
    } else {
      const head = await this.call(c, (pub) => pub.getBlock());
      if (Number(head.timestamp) < stake.deadline) {
        throw new MessengerError(
          'bad-argument',
          `not refundable yet: the recipient has until ${new Date(stake.deadline * 1000).toISOString()} to answer`,
        );
      }
      data = (await chainLib()).escrowCall({ functionName: 'refund', args: [stake.id as Hex] });
    }
    await this.confirmed(c, await this.transact(c, data, 0n));
    return stakeInfo(
      { ...stake, status: stake.releaseSignature ? 'released' : 'refunded' },
      me,
      c,
      Math.floor(this.now() / 1000),
    );
  }

  // =========================================================================================
  // chain plumbing

  /** Builds, signs (vault) and broadcasts an EIP-1559 call to the escrow; returns its hash. */
  private async transact(
    c: StakeConfig & { chainId: number; escrow: `0x${string}` },
    data: Hex,
    value: bigint,
    beforeBroadcast?: (hash: string) => void,
  ): Promise<Hex> {
    const from = this.d.me().address as Hex;
    const [chainId, balance, nonce, fees] = await this.call(c, (pub) =>
      Promise.all([
        pub.getChainId(),
        pub.getBalance({ address: from }),
        pub.getTransactionCount({ address: from, blockTag: 'pending' }),
        pub.estimateFeesPerGas(),
      ]),
    );
    if (chainId !== c.chainId)
      throw new MessengerError(
        'chain-unreachable',
        `the RPC URL serves chain ${chainId}, not the relay's chain ${c.chainId}: check it in Settings`,
      );
    if (balance < value) throw shortBalance(value, balance, c.currency);
    const gas = await this.call(c, (pub) => pub.estimateGas({ account: from, to: c.escrow, data, value }));
    const cost = value + gas * fees.maxFeePerGas;
    if (balance < cost) throw shortBalance(cost, balance, c.currency);
    const signed = await this.d.vault.signTransaction(
      {
        transaction: {
          chainId,
          nonce,
          to: c.escrow,
          value: value.toString(),
          data,
          gas: gas.toString(),
          maxFeePerGas: fees.maxFeePerGas.toString(),
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
        },
      },
      SIGN_TIMEOUT,
    );
    beforeBroadcast?.(signed.hash);
    return this.call(c, (pub) => pub.sendRawTransaction({ serializedTransaction: signed.serialized as Hex }));
  }

  private async confirmed(c: StakeConfig, hash: Hex): Promise<void> {
    const receipt = await this.call(c, (pub) =>
      pub.waitForTransactionReceipt({ hash, confirmations: Math.max(1, c.confirmations), timeout: 5 * 60_000 }),
    );
    if (receipt.status !== 'success')
      throw new MessengerError('chain-refused', `the transaction ${hash} failed on chain`);
  }

  private async call<T>(c: StakeConfig, work: (pub: PublicClient) => Promise<T>): Promise<T> {
    const pub = await this.chain(c);
    try {
      return await work(pub);
    } catch (e) {
      throw (await chainLib()).chainError(e, this.client?.url ?? '');
    }
  }

  private now(): number {
    return (this.d.now ?? Date.now)();
  }
}

/** EIP-712 `Release(bytes32 id)` in the escrow's domain. */
export function releaseTypedData(stake: Pick<StakeRecord, 'chainId' | 'escrow' | 'id'>) {
  return {
    domain: { name: 'RelayStakeEscrow', version: '1', chainId: stake.chainId, verifyingContract: stake.escrow },
    types: { Release: [{ name: 'id', type: 'bytes32' }] },
    primaryType: 'Release',
    message: { id: stake.id },
  };
}

function stakeInfo(r: StakeRecord, me: string, c: StakeConfig, nowS: number): StakeInfo {
  const role = r.sender.toLowerCase() === me ? 'sent' : 'received';
  return {
    id: r.id,
    role,
    peer: (role === 'sent' ? r.recipient : r.sender).toLowerCase(),
    amountWei: r.amountWei,
    currency: c.currency,
    status: r.status,
    deadline: r.deadline,
    createdAt: r.createdAt,
    released: r.releaseSignature !== null,
    // what the sender can do now: collect an accepted stake, or refund an ignored one
    refundable: role === 'sent' && r.status === 'active' && (r.releaseSignature !== null || nowS >= r.deadline),
  };
}

function shortBalance(need: bigint, have: bigint, currency: string): MessengerError {
  return new MessengerError(
    'insufficient-funds',
    `your wallet holds ${formatWei(have)} ${currency}; this needs ${formatWei(need)} ${currency} including gas`,
  );
}

/** viem, on the first use of the chain (stake-chain.ts) */
function chainLib(): Promise<typeof import('./stake-chain.js')> {
  return import('./stake-chain.js');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
