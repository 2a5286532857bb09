/**
 * Payable stakes on the relay (docs/protocol.md §13 Stakes): quotes for stake-gated sends, the check
 * of a staked send against the chain, and the stakes a caller sees. The chain is read by
 * state (`stakes(id)` at head − (confirmations − 1)), never by log scans.
 */
import { randomBytes } from 'node:crypto';
import { maxUint96, parseUnits, type Hex } from 'viem';
import type { StakeCurrency } from '../../../shared/api/common.js';
import type { StakeConfig, StakeQuote, StakeRecord } from '../../../shared/api/stakes.js';
import type { StakeStatus } from '../../../shared/stake/stake-types.js';
import { ChainUnreachableError, stakeIdOf, type StakeChain } from './stake-chain.js';
import { HttpError } from '../http/errors.js';
import { iso } from '../http/present.js';
import type { DeliveryItem, DeliveryOutcome, RelayStore, StakeCheck, StakeRow } from '../store/store.js';

const DAY_S = 24 * 60 * 60;
/** The shortest lock a quote asks for: an ignored stake comes back after a week. */
export const MIN_LOCK_SECONDS = 7 * DAY_S;
/** The escrow's own limit. */
export const MAX_LOCK_SECONDS = 30 * DAY_S;
/** How long a quote can be deposited against and sent with. */
export const QUOTE_TTL_MS = 30 * 60 * 1000;

export const stakeUnverifiable = (e: unknown) =>
  new HttpError(503, `${(e as Error).message}; nothing was delivered, try again later`, 'stake-unverifiable');
export const stakeUnavailable = () =>
  new HttpError(
    409,
    'this relay takes no stakes: it names no chain (see GET /api/v1/stake-config)',
    'stake-unavailable',
  );

export interface StakeService {
  readonly enabled: boolean;
  publicConfig(): StakeConfig;
  /** Reads each staked envelope's stake and sets `item.stake`; 503 when the chain cannot be read. */
  checkStakedItems(sender: string, items: DeliveryItem[], now: number): Promise<void>;
  /** Gives each stake-gated answer without a refusal a quote (one per recipient of the send). */
  addQuotes(
    sender: string,
    items: DeliveryItem[],
    outcomes: DeliveryOutcome[],
    now: number,
  ): Promise<(StakeQuote | undefined)[]>;
  /** The stake with its status read from the chain (and stored when it moved on). */
  refreshed(row: StakeRow): Promise<StakeRow>;
  present(row: StakeRow): StakeRecord;
  isReleaseSignature(row: StakeRow, signature: Hex): Promise<boolean>;
}

/** Wei of a decimal amount in the chain's 18-decimal currency, or null past what the escrow holds. */
export function weiOf(decimal: string): bigint | null {
  const wei = parseUnits(decimal, 18);
  return wei > 0n && wei <= maxUint96 ? wei : null;
}

export function createStakeService(
  store: RelayStore,
  chain: StakeChain | null,
  currency: StakeCurrency,
  publicRpcUrls: string[],
): StakeService {
  const read = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (e instanceof ChainUnreachableError) throw stakeUnverifiable(e);
      throw e;
    }
  };

  const check = async (sender: string, recipient: string, ref: string, now: number): Promise<StakeCheck> => {
    const c = chain!.config;
    const quote = await store.getStakeQuote(ref);
    if (!quote || quote.sender !== sender || quote.recipient !== recipient) return { refused: 'not-found' };
    const id = stakeIdOf(c.chainId, c.escrow, sender as Hex, recipient as Hex, ref as Hex);
    if (await store.getStake(id)) return { refused: 'used' };
    if (now > quote.expiresAt) return { refused: 'expired-quote' };
    const { confirmed, atHead } = await read(() => chain!.readStake(id));
    if (confirmed.status === 'none') return { refused: atHead.status === 'none' ? 'not-found' : 'unconfirmed' };
    if (confirmed.status !== 'active') return { refused: 'used' };
    if (confirmed.amountWei < BigInt(quote.amountWei)) return { refused: 'insufficient' };
    if (confirmed.deadline < quote.minDeadline || confirmed.deadline > quote.maxDeadline)
      return { refused: 'bad-deadline' };
    return {
      ok: {
        id,
        ref,
        chainId: c.chainId,
        escrow: c.escrow.toLowerCase(),
        sender,
        recipient,
        amountWei: confirmed.amountWei.toString(),
        deadline: confirmed.deadline,
        status: 'active',
        releaseSignature: null,
        createdAt: now,
      },
    };
  };

  return {
    enabled: chain !== null,
    publicConfig: () => ({
      enabled: chain !== null,
      currency,
      chainId: chain?.config.chainId ?? null,
      escrow: chain ? (chain.config.escrow.toLowerCase() as `0x${string}`) : null,
      confirmations: chain?.config.confirmations ?? 0,
      minLockSeconds: MIN_LOCK_SECONDS,
      maxLockSeconds: MAX_LOCK_SECONDS,
      rpcUrls: chain ? publicRpcUrls : [],
    }),

    async checkStakedItems(sender, items, now) {
      if (!chain) return;
      const byRef = new Map<string, Promise<StakeCheck>>();
      for (const item of items) {
        if (item.stakeRef === undefined) continue;
        const key = `${item.stakeRef}/${item.toAddress}`;
        if (!byRef.has(key)) byRef.set(key, check(sender, item.toAddress, item.stakeRef, now));
      }
      const results = new Map<string, StakeCheck>();
      for (const [key, p] of byRef) results.set(key, await p);
      for (const item of items)
        if (item.stakeRef !== undefined) item.stake = results.get(`${item.stakeRef}/${item.toAddress}`);
    },

    async addQuotes(sender, items, outcomes, now) {
      const byRecipient = new Map<string, StakeQuote>();
      const out: (StakeQuote | undefined)[] = [];
      for (let i = 0; i < outcomes.length; i++) {
        const o = outcomes[i];
        if (!chain || o.routed !== 'stake-gate' || o.stakeStatus !== undefined || o.stakeRequired === undefined) {
          out.push(undefined);
          continue;
        }
        const recipient = items[i].toAddress;
        let quote = byRecipient.get(recipient);
        if (!quote) {
          const amountWei = weiOf(o.stakeRequired);
          if (amountWei === null) {
            out.push(undefined);
            continue;
          }
          const ref = `0x${randomBytes(32).toString('hex')}`;
          const nowS = Math.floor(now / 1000);
          const row = {
            ref,
            sender,
            recipient,
            amountWei: amountWei.toString(),
            minDeadline: nowS + MIN_LOCK_SECONDS,
            maxDeadline: nowS + MAX_LOCK_SECONDS,
            createdAt: now,
            expiresAt: now + QUOTE_TTL_MS,
          };
          await store.createStakeQuote(row);
          quote = {
            chainId: chain.config.chainId,
            escrow: chain.config.escrow.toLowerCase() as `0x${string}`,
            amountWei: row.amountWei,
            ref,
            recipient,
            minDeadline: row.minDeadline,
            maxDeadline: row.maxDeadline,
            expiresAt: iso(row.expiresAt),
          };
          byRecipient.set(recipient, quote);
        }
        out.push(quote);
      }
      return out;
    },

    async refreshed(row) {
      if (!chain || row.status !== 'active') return row;
      const latest = await read(() => chain.readLatest(row.id as Hex));
      if (latest.status === 'none' || latest.status === row.status) return row;
      await store.setStakeStatus(row.id, latest.status as StakeStatus);
      return { ...row, status: latest.status };
    },

    present: (r) => ({
      chainId: r.chainId,
      escrow: r.escrow,
      id: r.id,
      amountWei: r.amountWei,
      deadline: r.deadline,
      status: r.status,
      sender: r.sender,
      recipient: r.recipient,
      ref: r.ref,
      createdAt: iso(r.createdAt),
      releaseSignature: r.releaseSignature,
      refundableAt: iso(r.deadline * 1000),
    }),

    isReleaseSignature: (row, signature) => chain!.isReleaseSignature(row.id as Hex, row.recipient as Hex, signature),
  };
}
