/**
 * Sending. A message is first written to the local database with an outbox entry (so it
 * survives a crash or a relay outage), then the outbox is flushed:
 *
 * - direct: the recipient's devices are fetched fresh and their certificates verified, plus
 *   our own other devices (so every device of ours sees the conversation); one copy is
 *   sealed per device and all copies go out as one batched POST;
 * - group: the member devices come from GET /groups/{id} (`memberDevices`, certificates
 *   verified) and one copy per device except this one goes out in one group POST.
 *
 * The relay's routing (inbox / request / blocked / stake-gate with stake and currency) is
 * recorded per device. Transient failures (relay down, 429, 5xx) leave the entry in the
 * outbox with exponential backoff; refusals (4xx) mark the message failed (retry re-queues).
 * A retry re-sends the same signed text, and receivers deduplicate by message id, so a
 * post whose answer was lost is harmless to repeat.
 */
import type { StakeCurrency, Routed } from '../../../shared/api/common.js';
import type { EnvelopeInput, SendResult } from '../../../shared/api/envelopes.js';
import type { StakeQuote } from '../../../shared/api/stakes.js';
import type { StakeRefusal } from '../../../shared/stake/stake-types.js';
import type { ChatMessage, ConversationId } from '../../../shared/domain.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import { VaultError } from '../../vault/vault-error.js';
import { verifyInParallel, type VerifiedDevice } from '../trust/certified-devices.js';
import type { SendReceiveParts } from './send-receive-parts.js';
import type { OutboxRow } from '../store/local-store.js';
import { composeFields, type ComposeInput } from '../messages/message-body.js';
import { controlFieldsOf, type ControlBody } from '../messages/message-control.js';
import type { AttachmentRef } from '../attachments/attachment-wire.js';
import { RelayError, credentialRefused, isTransient } from '../network/relay-api.js';
import { certifiedMemberDevices, envelopesFor } from '../messages/sealed-envelopes.js';
import { SAFETY_NUMBER_CHANGED, changedError } from '../trust/trust.js';

export interface DeviceDelivery {
  address: string;
  deviceKey: string;
  /** our own other device */
  own: boolean;
  routed: Routed;
  stakeRequired?: string;
  stakeCurrency?: StakeCurrency;
}

export interface SendOutcome {
  messageId: string;
  state: 'sent' | 'queued' | 'failed';
  routed: Routed | null;
  stakeRequired: string | null;
  stakeCurrency: StakeCurrency | null;
  deliveries: DeviceDelivery[];
  error: string | null;
  /** a stake gate's quote: what to deposit to get through (stakes.ts) */
  stakeQuote?: StakeQuote;
  /** why a staked send was refused */
  stakeStatus?: StakeRefusal;
}

/** What the outbox stores per message: the exact fields that get signed. */
interface Pending {
  target: { kind: 'direct'; peer: string } | { kind: 'group'; groupId: string };
  fields: ComposeInput;
  /** the deposited stake's quote ref, sent on the recipient's envelopes (docs/protocol.md §13 Stakes) */
  stakeRef?: string;
}

export interface OutboxDeps extends SendReceiveParts {
  vault: Pick<VaultClient, 'sealMessage' | 'verifyCertificates'>;
  onUpdated?: (m: ChatMessage) => void;
  /** a stake gate answered with a quote for this message */
  onStakeQuote?: (messageId: string, quote: StakeQuote) => void;
  /** a verified contact's devices changed and the person has not said to send anyway (trust.ts) */
  holdsBack?: (peer: string) => boolean;
  /** the relay no longer counts us a member of this group (groups/groups.ts closes its chat) */
  onNotAMember?: (groupId: string) => void;
}

const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 5 * 60 * 1000;
/** how long our own device list is reused between sends */
const OWN_DEVICES_TTL_MS = 30_000;

/**
 * Quota refusals (docs/protocol.md §4 Limits) answer 429 or 507 like a busy relay, but they last until
 * the recipient catches up or the operator frees disk: retrying quietly would leave the message
 * showing "sending" with no word of why, so they fail at once and the person retries.
 */
const QUOTA_REFUSALS = new Set(['recipient-full', 'requests-full', 'too-many-requests-pending', 'storage-full']);

function quotaRefusal(e: unknown): string | null {
  return e instanceof RelayError && e.code !== null && QUOTA_REFUSALS.has(e.code) ? e.code : null;
}

/** Worth trying again later: relay down or busy, our key refused (until we sign in again), vault locked or restarting. */
function retryable(e: unknown): boolean {
  if (quotaRefusal(e)) return false;
  if (isTransient(e) || credentialRefused(e)) return true;
  return e instanceof VaultError && ['locked', 'timeout', 'worker-crashed', 'closed'].includes(e.code);
}

export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

export class Outbox {
  private flushing: Promise<SendOutcome[]> | null = null;
  private again = false;
  /** ids of the entries a run has read and not finished with */
  private readonly taken = new Set<string>();
  private ownDevices: { at: number; list: VerifiedDevice[] } | null = null;

  constructor(private readonly d: OutboxDeps) {}

  private now(): number {
    return (this.d.now ?? Date.now)();
  }

  /**
   * Writes a new message and its outbox entry; nothing goes on the network here. `expiresIn`:
   * the conversation's disappearing timer; `timer`: this is a timer notice (kind timer);
   * `files`: uploaded files, the message goes out as kind `attachment`.
   */
  enqueue(
    target: Pending['target'],
    text: string,
    kind: 'text' | 'request',
    opts: { expiresIn?: number | null; timer?: number; files?: AttachmentRef[] } = {},
  ): ChatMessage {
    const me = this.d.me();
    const nowMs = this.now();
    const extra =
      opts.timer !== undefined
        ? controlFieldsOf({ kind: 'timer', seconds: opts.timer })
        : opts.expiresIn
          ? { expiresIn: opts.expiresIn }
          : undefined;
    const fields = this.fieldsFor(target, opts.timer !== undefined ? 'timer' : kind, text, nowMs, extra);
    if (opts.files) fields.files = opts.files;
    const files = opts.files;
    const pending: Pending = { target, fields };
    const isDirect = target.kind === 'direct';
    return this.d.store.insertOutgoing({
      id: fields.id,
      conversationId: isDirect ? `direct:${target.peer}` : `group:${target.groupId}`,
      kind: target.kind,
      peer: isDirect ? target.peer : target.groupId,
      author: me.address,
      messageKind: kind,
      text,
      sentAt: fields.sentAt,
      payload: JSON.stringify(pending),
      asRequest: kind === 'request',
      nowMs,
      expiresIn: opts.expiresIn ?? null,
      timerSeconds: opts.timer ?? null,
      files,
    });
  }

  /** Queues an edit or delete of ours; it has no message row, only the outbox entry (applied locally by the caller). */
  enqueueChange(
    target: Pending['target'],
    body: Extract<ControlBody, { kind: 'edit' | 'delete' }>,
  ): { id: string; sentAt: string } {
    const nowMs = this.now();
    const fields = this.fieldsFor(
      target,
      body.kind,
      body.kind === 'edit' ? body.text : '',
      nowMs,
      controlFieldsOf(body),
    );
    const conversationId =
      target.kind === 'direct' ? (`direct:${target.peer}` as const) : (`group:${target.groupId}` as const);
    this.d.store.queueChange({
      id: fields.id,
      conversationId,
      payload: JSON.stringify({ target, fields } satisfies Pending),
      nowMs,
    });
    return { id: fields.id, sentAt: fields.sentAt };
  }

  private fieldsFor(
    target: Pending['target'],
    kind: ComposeInput['kind'],
    text: string,
    nowMs: number,
    extra?: Record<string, unknown>,
  ): ComposeInput {
    return {
      id: globalThis.crypto.randomUUID(),
      sentAt: new Date(nowMs).toISOString(),
      kind,
      text,
      ...(extra ? { extra } : {}),
      device: this.d.me().deviceKey,
      ...(target.kind === 'direct' ? { to: target.peer } : {}),
    };
  }

  /** Puts a failed message back into the outbox. */
  retry(messageId: string): boolean {
    const row = this.d.store.getOutbox(messageId);
    if (row) {
      this.d.store.deferOutbox(messageId, 0, this.now(), row.lastError ?? '');
      return true;
    }
    return this.requeue(messageId);
  }

  /**
   * Queues a stake-gated (or failed) message again, with the ref of a deposited stake (or
   * without one, to get a fresh quote). The same signed text goes out: receivers deduplicate.
   */
  requeue(messageId: string, stakeRef?: string): boolean {
    const msg = this.d.store.getMessage(messageId);
    if (!msg || !msg.fromMe) return false;
    const target: Pending['target'] = msg.conversationId.startsWith('group:')
      ? { kind: 'group', groupId: msg.conversationId.slice(6) }
      : { kind: 'direct', peer: msg.conversationId.slice(7) };
    // a timer notice goes out as what it was, and a message with its timer
    const extra =
      msg.timerSeconds !== null
        ? controlFieldsOf({ kind: 'timer', seconds: msg.timerSeconds })
        : msg.expiresIn !== null
          ? { expiresIn: msg.expiresIn }
          : undefined;
    const fields: ComposeInput = {
      id: msg.id,
      sentAt: msg.sentAt,
      kind: msg.timerSeconds !== null ? 'timer' : msg.kind,
      text: msg.text,
      ...(extra ? { extra } : {}),
      device: this.d.me().deviceKey,
      ...(target.kind === 'direct' ? { to: target.peer } : {}),
    };
    const files = this.d.store.attachments.refsOf(msg.id);
    if (files.length > 0) fields.files = files;
    const pending: Pending = { target, fields, ...(stakeRef ? { stakeRef } : {}) };
    return this.d.store.requeue(messageId, JSON.stringify(pending), msg.kind === 'request', this.now());
  }

  /**
   * Sends every due entry (all entries with `force`). Concurrent calls share one run; a call
   * that arrives during a run triggers one more run afterwards.
   */
  async flush(force = false): Promise<SendOutcome[]> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      const all: SendOutcome[] = [];
      do {
        this.again = false;
        all.push(...(await this.flushOnce(force)));
      } while (this.again);
      return all;
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /**
   * Withdraws an own message still waiting to go (see MessageChangesStore.withdrawQueued);
   * false when a send has already taken it, or it is not waiting.
   */
  withdraw(messageId: string, conversationId: ConversationId): boolean {
    if (this.taken.has(messageId)) return false;
    return this.d.store.changes.withdrawQueued(messageId, conversationId);
  }

  private async flushOnce(force: boolean): Promise<SendOutcome[]> {
    const due = this.d.store.dueOutbox(force ? Number.MAX_SAFE_INTEGER : this.now(), 100);
    // taken before the first await, so a withdraw can never race this run's POST
    for (const row of due) this.taken.add(row.messageId);
    try {
      return await this.sendDue(due);
    } finally {
      for (const row of due) this.taken.delete(row.messageId);
    }
  }

  private async sendDue(due: OutboxRow[]): Promise<SendOutcome[]> {
    const outcomes: SendOutcome[] = [];
    const direct: Array<{ row: OutboxRow; p: Pending }> = [];
    for (const row of due) {
      let p: Pending;
      try {
        p = JSON.parse(row.payload) as Pending;
      } catch {
        outcomes.push(this.fail(row.messageId, 'the outbox entry is unreadable'));
        continue;
      }
      if (p.target.kind === 'group') outcomes.push(await this.sendGroup(row, p));
      else direct.push({ row, p });
    }
    if (direct.length > 0) outcomes.push(...(await this.sendDirect(direct)));
    return outcomes;
  }

  /** Reads this wallet's devices afresh at the next send (a new one is known to be there). */
  forgetOwnDevices(): void {
    this.ownDevices = null;
  }

  private async ownOtherDevices(): Promise<VerifiedDevice[]> {
    const me = this.d.me();
    if (!this.ownDevices || this.now() - this.ownDevices.at > OWN_DEVICES_TTL_MS) {
      this.ownDevices = { at: this.now(), list: await this.d.devices.fetch(me.address) };
    }
    return this.ownDevices.list.filter((d) => d.publicKey !== me.deviceKey);
  }

  /** Seals and posts several direct messages; their copies share batched POSTs. */
  private async sendDirect(items: Array<{ row: OutboxRow; p: Pending }>): Promise<SendOutcome[]> {
    const prepared: Array<{
      row: OutboxRow;
      envs: EnvelopeInput[];
      targets: Array<{ address: string; deviceKey: string; own: boolean }>;
    }> = [];
    const outcomes: SendOutcome[] = [];
    for (const { row, p } of items) {
      try {
        const peer = (p.target as { peer: string }).peer;
        const theirs = await this.d.devices.fetch(peer);
        if (theirs.length === 0) {
          outcomes.push(this.fail(row.messageId, `${peer} has no certified devices on this relay`));
          continue;
        }
        // the fetch just found the change: nothing goes to the new device before the person says so
        if (this.d.holdsBack?.(peer)) {
          outcomes.push(this.fail(row.messageId, changedError(peer).message, SAFETY_NUMBER_CHANGED));
          continue;
        }
        const mine = peer === this.d.me().address ? [] : await this.ownOtherDevices();
        const targets = [
          ...theirs.map((d) => ({ ...d, own: false })),
          ...mine.map((d) => ({ ...d, own: true })),
        ].filter((d) => d.publicKey !== this.d.me().deviceKey);
        if (targets.length === 0) {
          outcomes.push(this.fail(row.messageId, 'there is no other device to send to'));
          continue;
        }
        const sealed = await this.d.vault.sealMessage({
          frame: 'direct',
          message: composeFields(p.fields),
          recipients: targets.map((t) => ({ deviceKey: t.publicKey })),
        });
        const envs: EnvelopeInput[] = envelopesFor(sealed.sealed, targets).map((env, i) => {
          if (targets[i].own) return env;
          return {
            ...env,
            ...(row.asRequest ? { asRequest: true } : {}),
            ...(p.stakeRef ? { stakeRef: p.stakeRef } : {}),
          };
        });
        prepared.push({
          row,
          envs,
          targets: targets.map((t) => ({ address: t.address, deviceKey: t.publicKey, own: t.own })),
        });
      } catch (e) {
        outcomes.push(this.handleError(row, e));
      }
    }
    if (prepared.length === 0) return outcomes;
    try {
      const results = await this.d.api().send(prepared.flatMap((x) => x.envs));
      let at = 0;
      for (const x of prepared) {
        outcomes.push(this.record(x.row.messageId, x.targets, results.slice(at, at + x.envs.length), null));
        at += x.envs.length;
      }
    } catch (e) {
      const refusal =
        e instanceof RelayError &&
        ((e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 401) || quotaRefusal(e) !== null);
      if (prepared.length > 1 && refusal) {
        // one bad message (or one full inbox) rejects the whole batch on the relay: find it by sending them one by one
        for (const x of prepared) {
          try {
            outcomes.push(this.record(x.row.messageId, x.targets, await this.d.api().send(x.envs), null));
          } catch (e2) {
            outcomes.push(this.handleError(x.row, e2));
          }
        }
      } else {
        for (const x of prepared) outcomes.push(this.handleError(x.row, e));
      }
    }
    return outcomes;
  }

  private async sendGroup(row: OutboxRow, p: Pending): Promise<SendOutcome> {
    const groupId = (p.target as { groupId: string }).groupId;
    try {
      const view = await this.d.api().group(groupId);
      await verifyInParallel(view.memberDevices, this.d.vault);
      const me = this.d.me();
      const targets = certifiedMemberDevices(view.memberDevices, me.deviceKey).map((t) => ({
        ...t,
        own: t.address === me.address,
      }));
      if (targets.length === 0) return this.record(row.messageId, [], [], 'api-key');
      const sealed = await this.d.vault.sealMessage({
        frame: 'group',
        groupId,
        message: composeFields(p.fields),
        recipients: targets.map((t) => ({ deviceKey: t.deviceKey })),
      });
      const res = await this.d.api().groupSend(groupId, envelopesFor(sealed.sealed, targets));
      return this.record(row.messageId, targets, res.results, res.via);
    } catch (e) {
      // out of the group: no retry can work, and the chat says so (its composer closes)
      if (e instanceof RelayError && e.status === 401 && e.code === 'not-a-member') {
        const outcome = this.fail(row.messageId, e.message, 'not-a-member');
        this.d.onNotAMember?.(groupId);
        return outcome;
      }
      return this.handleError(row, e);
    }
  }

  private record(
    messageId: string,
    targets: Array<{ address: string; deviceKey: string; own: boolean }>,
    results: SendResult[],
    via: 'group-token' | 'api-key' | null,
  ): SendOutcome {
    const deliveries: DeviceDelivery[] = targets.map((t, i) => {
      const r = results[i];
      const d: DeviceDelivery = { address: t.address, deviceKey: t.deviceKey, own: t.own, routed: r.routed };
      if (r.stakeRequired !== undefined) d.stakeRequired = r.stakeRequired;
      if (r.stakeCurrency !== undefined) d.stakeCurrency = r.stakeCurrency;
      return d;
    });
    // what the user sees: how the other side's copies were routed (all copies to one person route alike)
    const headline = deliveries.find((d) => !d.own) ?? deliveries[0] ?? null;
    const routed = headline?.routed ?? null;
    const stakeRequired = headline?.stakeRequired ?? null;
    const stakeCurrency = headline?.stakeCurrency ?? null;
    this.d.store.markSent(messageId, { routed, stakeRequired, stakeCurrency, via, deliveries });
    const theirs = results[deliveries.indexOf(headline!)];
    if (theirs?.stakeQuote) this.d.onStakeQuote?.(messageId, theirs.stakeQuote);
    this.emit(messageId);
    return {
      messageId,
      state: 'sent',
      routed,
      stakeRequired,
      stakeCurrency,
      deliveries,
      error: null,
      ...(theirs?.stakeQuote ? { stakeQuote: theirs.stakeQuote } : {}),
      ...(theirs?.stakeStatus ? { stakeStatus: theirs.stakeStatus } : {}),
    };
  }

  private handleError(row: OutboxRow, e: unknown): SendOutcome {
    const message = e instanceof Error ? e.message : String(e);
    // 401: the key was revoked or the relay forgot us; keep the message until we sign in again
    if (retryable(e)) {
      const attempts = row.attempts + 1;
      this.d.store.deferOutbox(row.messageId, attempts, this.now() + backoffMs(attempts), message);
      return {
        messageId: row.messageId,
        state: 'queued',
        routed: null,
        stakeRequired: null,
        stakeCurrency: null,
        deliveries: [],
        error: message,
      };
    }
    return this.fail(row.messageId, message, quotaRefusal(e));
  }

  private fail(messageId: string, error: string, code: string | null = null): SendOutcome {
    this.d.store.markFailed(messageId, error, code);
    this.emit(messageId);
    return {
      messageId,
      state: 'failed',
      routed: null,
      stakeRequired: null,
      stakeCurrency: null,
      deliveries: [],
      error,
    };
  }

  private emit(messageId: string): void {
    const m = this.d.store.getMessage(messageId);
    if (m) this.d.onUpdated?.(m);
  }
}
