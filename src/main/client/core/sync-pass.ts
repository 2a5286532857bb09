/**
 * One sync pass: pull → open (vault) → check → commit → ack, repeated until the inbox is empty.
 *
 * The order is the whole point. Pulls are non-consuming, so an envelope stays on the relay
 * until we ack it, and we ack only what is already committed locally (the commit also
 * records the ids in `pending_acks`, so an ack that never reached the relay is sent again on
 * the next pass). A crash before the commit loses nothing (the relay still has it); a crash
 * after it shows nothing twice (the message id is the primary key, a redelivery is a no-op).
 *
 * Checks, beyond the vault's (AES-GCM, frame tag and group id, signature = m.from,
 * m.from = envelope sender unless a bot post):
 * - people's messages name their sending device (`m.device`), which must be one of the
 *   author's certified devices (GET /keys, certificates verified);
 * - a direct message from someone else must be addressed to us (`m.to`): one that names no
 *   recipient is dropped like one addressed to someone else, or a message signed for another
 *   reader could be forwarded to us and shown as written to us;
 * - our own messages (from our other devices) must name the peer they went to.
 * A message that fails is acked and dropped (reported through `onRejected`, one call each;
 * nothing keeps a list), never stored under the claimed sender. Only transient trouble (relay unreachable while checking a
 * device) leaves an envelope un-acked for the next pass.
 *
 * `SyncPass` runs one pass when asked (one at a time); sync-loop.ts decides when to ask.
 */
import type { Envelope } from '../../../shared/api/envelopes.js';
import type { ConversationId, RejectedMessage } from '../../../shared/domain.js';
import type { OpenOutcome, OpenedMessage } from '../../vault/worker/vault-protocol.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import type { SendReceiveParts } from './send-receive-parts.js';
import type { AppliedIncoming, IncomingMessage } from '../store/local-store.js';
import { readBody, readBotName, readSignal, type ReadSignal } from '../messages/message-body.js';
import { isTransient } from '../network/relay-api.js';
import type { HistoryTransfer } from '../history/history-transfer.js';
import { HISTORY_KIND } from '../history/history-wire.js';

export type CrashPoint = 'before-commit' | 'after-commit' | 'after-print' | 'after-ack';

export type Rejection = RejectedMessage;

/** A receipt or typing notice from a peer, checked like a message (certified device, addressed to us). */
export interface IncomingSignal {
  from: string;
  signal: ReadSignal;
}

export interface SyncPassResult {
  pulled: number;
  stored: number;
  /** how many envelopes failed a check (each was reported through onRejected) */
  rejected: number;
  /** envelopes left on the relay for a later pass (transient trouble) */
  deferred: number;
  /**
   * envelopes of the last page left on the relay (deferred, or sealed for another device of
   * ours): a held pull would be answered with them at once, so the loop waits instead
   */
  unsettled: number;
}

/** A pass whose first pull the relay holds until something arrives (docs/protocol.md §10). */
export interface Hold {
  waitSeconds: number;
  signal: AbortSignal;
}

export interface SyncPassDeps extends SendReceiveParts {
  vault: Pick<VaultClient, 'openMany'>;
  /** called after each commit, before its ack (the CLI prints here; the app emits events) */
  onCommitted?: (applied: AppliedIncoming) => void | Promise<void>;
  onRejected?: (r: Rejection) => void;
  /** receipts and typing notices of a batch, before its ack (never stored: a crash before the ack brings them again) */
  onSignals?: (signals: IncomingSignal[]) => void;
  /** test seam: SIGKILL ourselves at this point of the first batch that stores something */
  crashAt?: CrashPoint | null;
  pullLimit?: number;
  /** `history` messages from our other devices (history-transfer.ts) */
  history?: Pick<HistoryTransfer, 'accept'>;
}

export class SyncPass {
  private running: Promise<SyncPassResult> | null = null;

  constructor(private readonly d: SyncPassDeps) {}

  /** Runs a pass, or joins the one in progress; with `hold`, its first pull waits for something to arrive. */
  syncOnce(hold?: Hold): Promise<SyncPassResult> {
    if (!this.running) {
      this.running = this.pass(hold).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private now(): number {
    return (this.d.now ?? Date.now)();
  }

  private crash(point: CrashPoint, stored: number): void {
    if (this.d.crashAt === point && stored > 0) process.kill(process.pid, 'SIGKILL');
  }

  private async pass(hold?: Hold): Promise<SyncPassResult> {
    const result: SyncPassResult = { pulled: 0, stored: 0, rejected: 0, deferred: 0, unsettled: 0 };
    this.d.devices.startPass();
    await this.flushPendingAcks();
    const limit = this.d.pullLimit ?? 100;
    // after a wake, the rest is drained without waiting
    for (let first = true; ; first = false) {
      const envelopes =
        first && hold
          ? await this.d.api().heldPull(limit, hold.waitSeconds, hold.signal)
          : await this.d.api().pull(limit);
      result.pulled += envelopes.length;
      result.unsettled = 0;
      if (envelopes.length === 0) break;
      const batch = await this.processBatch(envelopes);
      result.rejected += batch.rejected;
      result.deferred += batch.deferred;

      this.crash('before-commit', batch.items.length);
      const applied = this.d.store.applyIncoming(batch.items, batch.ackIds, this.now());
      result.stored += applied.messages.length;
      this.crash('after-commit', batch.items.length);
      if (batch.signals.length > 0) this.d.onSignals?.(batch.signals);

      await this.d.onCommitted?.(applied);
      this.crash('after-print', batch.items.length);

      await this.ackCommitted(batch.ackIds);
      this.crash('after-ack', batch.items.length);
      result.unsettled = envelopes.length - batch.ackIds.length;

      // a short page means the inbox is drained; a page with nothing we could settle would repeat forever
      if (envelopes.length < limit || batch.ackIds.length === 0) break;
    }
    return result;
  }

  /** Acks ids committed by an earlier pass whose ack did not reach the relay. */
  private async flushPendingAcks(): Promise<void> {
    for (;;) {
      const ids = this.d.store.pendingAcks(500);
      if (ids.length === 0) return;
      await this.d.api().ack(ids, 'background');
      this.d.store.clearPendingAcks(ids);
      if (ids.length < 500) return;
    }
  }

  private async ackCommitted(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      await this.d.api().ack(ids, 'background');
      this.d.store.clearPendingAcks(ids);
    } catch (e) {
      // committed already: the ids stay in pending_acks and go out on the next pass
      if (!isTransient(e)) throw e;
    }
  }

  private async processBatch(envelopes: Envelope[]): Promise<{
    items: IncomingMessage[];
    signals: IncomingSignal[];
    ackIds: string[];
    rejected: number;
    deferred: number;
  }> {
    const outcomes: OpenOutcome[] = await this.d.vault.openMany({ envelopes });
    const items: IncomingMessage[] = [];
    const signals: IncomingSignal[] = [];
    const ackIds: string[] = [];
    let rejected = 0;
    let deferred = 0;
    const me = this.d.me();
    const receivedAt = new Date(this.now()).toISOString();
    for (let i = 0; i < envelopes.length; i++) {
      const env = envelopes[i];
      const outcome = outcomes[i];
      const reject = (reason: string): void => {
        rejected++;
        ackIds.push(env.id);
        this.d.onRejected?.({ envelopeId: env.id, claimedSender: env.senderAddress, reason });
      };
      if (!outcome) {
        deferred++;
        continue;
      }
      if (!outcome.ok) {
        // sealed for another of our devices: not ours to open or to ack (an unbound key sees them)
        if (outcome.error.code === 'wrong-device') continue;
        reject(`${outcome.error.code}: ${outcome.error.message}`);
        continue;
      }
      try {
        const verdict = await this.check(env, outcome.value, me, receivedAt);
        if (typeof verdict === 'string') {
          if (verdict === '')
            ackIds.push(env.id); // a kind we do not show: settle silently
          else reject(verdict);
        } else if ('signal' in verdict) {
          signals.push(verdict);
          ackIds.push(env.id);
        } else {
          items.push(verdict);
          ackIds.push(env.id);
        }
      } catch (e) {
        if (!isTransient(e)) throw e;
        deferred++;
      }
    }
    return { items, signals, ackIds, rejected, deferred };
  }

  /** The message to store, a signal to apply, a rejection reason, or '' for a valid message of a kind we ignore. */
  private async check(
    env: Envelope,
    opened: OpenedMessage,
    me: { address: string; deviceKey: string },
    receivedAt: string,
  ): Promise<IncomingMessage | IncomingSignal | string> {
    if (opened.m.kind === HISTORY_KIND) return this.d.history ? this.d.history.accept(env, opened) : '';
    const body = readBody(opened.m as Record<string, unknown>);
    if (body === null) return this.checkSignal(opened, me);
    const author = opened.author.toLowerCase();
    const botPost = opened.kind === 'group' && env.via === 'group-token';
    if (!botPost) {
      if (body.device === null) return 'the message names no sending device';
      if (!(await this.d.devices.isCertified(author, body.device)))
        return `device ${body.device.slice(0, 12)}… is not a certified device of ${author}`;
    }
    const sentAt = normaliseTime(opened.m.sentAt, receivedAt);
    // botName is the relay's word, not the signer's: taken only where the relay says a token posted.
    const botName = botPost ? readBotName(env.botName) : null;
    const base = {
      id: opened.m.id.toLowerCase(),
      envelopeId: env.id,
      author,
      kind: body.kind,
      text: body.text,
      sentAt,
      receivedAt,
      via: env.via,
      botName,
      control: body.control,
      expiresIn: body.expiresIn,
      files: body.files,
    };
    if (opened.kind === 'group') {
      const groupId = opened.groupId!;
      return {
        ...base,
        conversationId: `group:${groupId}` as ConversationId,
        conversationKind: 'group',
        peer: groupId,
        fromMe: author === me.address && !botPost,
        routed: env.routed,
        isRequest: false,
      };
    }
    if (author === me.address) {
      if (body.to === null) return 'a message from our own wallet that names no recipient';
      return {
        ...base,
        conversationId: `direct:${body.to}`,
        conversationKind: 'direct',
        peer: body.to,
        fromMe: true,
        routed: 'inbox',
        isRequest: false,
      };
    }
    if (body.to === null)
      return 'the direct message names no recipient (to), so it may have been meant for someone else';
    if (body.to !== me.address) return `the message was addressed to ${body.to}, not to us`;
    return {
      ...base,
      conversationId: `direct:${author}`,
      conversationKind: 'direct',
      peer: author,
      fromMe: false,
      routed: env.routed,
      isRequest: env.routed === 'request',
    };
  }

  /**
   * Receipts and typing notices count only from the peer of a direct conversation, from one of
   * their certified devices, addressed to us; anything else (a group's, our own, a malformed
   * one, a kind we do not know) is settled silently.
   */
  private async checkSignal(
    opened: OpenedMessage,
    me: { address: string; deviceKey: string },
  ): Promise<IncomingSignal | string> {
    const signal = readSignal(opened.m as Record<string, unknown>);
    const from = opened.author.toLowerCase();
    if (signal === null || opened.kind !== 'direct' || from === me.address) return '';
    if (signal.device === null) return 'the receipt or typing notice names no sending device';
    if (!(await this.d.devices.isCertified(from, signal.device)))
      return `device ${signal.device.slice(0, 12)}… is not a certified device of ${from}`;
    if (signal.to !== me.address) return 'the receipt or typing notice was addressed to someone else';
    return { from, signal };
  }
}

/** Sender clocks are not ours to trust for ordering beyond reason: keep it ISO and not in the future. */
function normaliseTime(sentAt: string, receivedAt: string): string {
  const t = Date.parse(sentAt);
  if (!Number.isFinite(t)) return receivedAt;
  const iso = new Date(t).toISOString();
  return iso > receivedAt ? receivedAt : iso;
}
