/**
 * Conversations as the person sees them: the list, opening one, read marks, mute, the
 * preferences, and the live signals between two people (receipts and "typing…"), both ways.
 */
import type { ConversationId, ConversationSummary, Preferences } from '../../../shared/domain.js';
import { DEFAULT_PREFERENCES } from '../../../shared/domain.js';
import type { CommandArgs } from '../../../shared/ipc.js';
import type { FeatureContext, FeatureHandlers } from '../core/feature-context.js';
import { MessengerError } from '../core/messenger-error.js';
import type { Signals } from './receipts-and-typing.js';
import type { AppliedIncoming } from '../store/local-store.js';
import type { IncomingSignal } from '../core/sync-pass.js';

const PREFERENCES_KEY = 'preferences';
/** how long "typing…" shows without a renewal (the sender renews every 3 s) */
const TYPING_SHOWN_MS = 6000;

type ConversationCommands =
  | 'conversations.list'
  | 'conversations.open'
  | 'conversations.markRead'
  | 'conversations.typing'
  | 'conversations.mute'
  | 'preferences.get'
  | 'preferences.set';

export interface ConversationsDeps extends FeatureContext {
  signals: Signals;
  /** the read mark moves the disappearing-message clock (messages/message-changes.ts) */
  onRead(id: ConversationId): void;
  resolveRecipient(to: string): Promise<string>;
  wantHandles(addresses: readonly string[]): void;
  /** whether signals may go out: a relay key, and not revoked (core/relay-session.ts) */
  session: { hasCredential(): boolean; isRevoked(): boolean };
}

export class Conversations {
  /** peers shown typing, each until a renewal is overdue */
  private readonly typingUntil = new Map<string, NodeJS.Timeout>();
  /**
   * Whether what a pass stores is acknowledged with `delivered` receipts. The app and the CLI's
   * `sync --follow` do; the CLI's one-shot commands end within moments of their pass, mostly before
   * a receipt's gathering time is over, so they send none rather than some by chance of timing.
   */
  deliveredReceipts = true;

  constructor(private readonly ctx: ConversationsDeps) {}

  handlers(): FeatureHandlers<ConversationCommands> {
    return {
      'conversations.list': async () => this.list(),
      'conversations.open': (a) => this.open(a),
      'conversations.markRead': async (a) => this.markRead(a),
      'conversations.typing': (a) => this.typing(a),
      'conversations.mute': async (a) => this.mute(a),
      'preferences.get': async () => this.preferences(),
      'preferences.set': async (a) => this.setPreferences(a),
    };
  }

  list(): ConversationSummary[] {
    return this.ctx.store.listConversations();
  }

  /** Opens (creating) the direct conversation with `0x…` or `@handle`. */
  async open(a: CommandArgs<'conversations.open'>): Promise<ConversationSummary> {
    const address = await this.ctx.resolveRecipient(a.to);
    const id = `direct:${address}` as const;
    this.ctx.store.ensureConversation(id, 'direct', address, new Date(this.ctx.nowMs()).toISOString());
    this.ctx.wantHandles([address]);
    const c = this.ctx.store.getConversation(id)!;
    this.ctx.emit('conversation.updated', c);
    return c;
  }

  /** Marks the conversation read, and tells the peer so (`read` receipts) unless the person turned that off. */
  markRead(a: CommandArgs<'conversations.markRead'>): void {
    const { store } = this.ctx;
    const id = a.conversationId as ConversationId;
    const unread = store.getConversation(id)?.unread ?? 0;
    store.markRead(id);
    this.ctx.onRead(id);
    this.ctx.emitConversation(id);
    if (
      unread === 0 ||
      !id.startsWith('direct:') ||
      !this.preferences().readReceipts ||
      !this.ctx.session.hasCredential()
    )
      return;
    // A request's messages are acknowledged too once its sender was accepted: they are the
    // start of the conversation, and the sender's ticks should follow them like any other.
    const accepted = store.getContact(id.slice(7))?.state === 'allowed';
    const ids = store
      .listMessages(id, null, Math.min(unread, 100))
      .filter((m) => !m.fromMe && (m.routed === 'inbox' || (accepted && m.routed === 'request')))
      .map((m) => m.id);
    this.ctx.signals.receipt(id.slice(7), ids, 'read');
  }

  /**
   * The person accepted `address`'s contact request: what it brought is delivered now (until
   * then a request is not acknowledged, so nothing tells a stranger their words arrived).
   */
  requestAccepted(address: string): void {
    if (!this.ctx.session.hasCredential() || this.ctx.session.isRevoked()) return;
    const ids = this.ctx.store
      .listMessages(`direct:${address}` as ConversationId, null, 100)
      .filter((m) => !m.fromMe && m.routed === 'request')
      .map((m) => m.id);
    this.ctx.signals.receipt(address, ids, 'delivered');
  }

  /** Typing notices go to direct conversations only (a group's would reach every member's devices). */
  async typing(a: CommandArgs<'conversations.typing'>): Promise<void> {
    const id = a.conversationId as ConversationId;
    if (!id.startsWith('direct:') || !this.ctx.session.hasCredential() || this.ctx.session.isRevoked()) return;
    await this.ctx.signals.typing(id.slice(7), a.state);
  }

  mute(a: CommandArgs<'conversations.mute'>): ConversationSummary {
    const id = a.conversationId as ConversationId;
    const c = this.ctx.store.getConversation(id);
    if (!c) throw new MessengerError('not-found', 'no such conversation');
    this.ctx.store.setMuted(id, a.muted);
    const updated = this.ctx.store.getConversation(id)!;
    this.ctx.emit('conversation.updated', updated);
    return updated;
  }

  preferences(): Preferences {
    const raw = this.ctx.store.getSetting(PREFERENCES_KEY);
    let kept: Partial<Preferences> = {};
    try {
      kept = raw ? (JSON.parse(raw) as Partial<Preferences>) : {};
    } catch {
      // unreadable: the defaults
    }
    return { ...DEFAULT_PREFERENCES, ...kept };
  }

  setPreferences(a: CommandArgs<'preferences.set'>): Preferences {
    const next = { ...this.preferences(), ...a };
    this.ctx.store.setSetting(PREFERENCES_KEY, JSON.stringify(next));
    return next;
  }

  /** Receipts move own messages forward (delivered → read); typing notices pass straight to the app. */
  applySignals(signals: IncomingSignal[]): void {
    for (const { from, signal } of signals) {
      const conversationId = `direct:${from}` as const;
      if (signal.kind === 'typing') {
        this.setTyping(from, signal.state);
        continue;
      }
      // groups/ hears these
      if (signal.kind === 'group-removed') continue;
      const changed =
        signal.state === 'read'
          ? this.ctx.store.markReadByPeer(conversationId, signal.of)
          : this.ctx.store.markDelivered(conversationId, signal.of);
      for (const id of changed) {
        const m = this.ctx.store.getMessage(id);
        if (m) this.ctx.emit('message.updated', m);
      }
    }
  }

  /** What a committed sync pass means here: a message ends its author's "typing…", and inbox messages are acknowledged. */
  committed(applied: AppliedIncoming): void {
    for (const m of applied.messages) if (!m.fromMe && this.typingUntil.has(m.from)) this.setTyping(m.from, 'off');
    if (this.deliveredReceipts) this.sendDeliveredReceipts(applied);
  }

  close(): void {
    for (const t of this.typingUntil.values()) clearTimeout(t);
  }

  /** A peer types on while notices come at least every 6 s; a message from them or an `off` ends it. */
  private setTyping(from: string, state: 'on' | 'off'): void {
    const shown = this.typingUntil.get(from);
    if (shown) clearTimeout(shown);
    this.typingUntil.delete(from);
    if (state === 'on') {
      const t = setTimeout(() => this.setTyping(from, 'off'), TYPING_SHOWN_MS);
      t.unref?.();
      this.typingUntil.set(from, t);
    } else if (!shown) return;
    this.ctx.emit('typing', { conversationId: `direct:${from}`, from, state });
  }

  /** Direct messages that reached the inbox are acknowledged to their sender (requests are not, until accepted). */
  private sendDeliveredReceipts(applied: AppliedIncoming): void {
    const byPeer = new Map<string, string[]>();
    for (const m of applied.messages) {
      if (m.fromMe || m.routed !== 'inbox' || !m.conversationId.startsWith('direct:')) continue;
      const peer = m.conversationId.slice(7);
      byPeer.set(peer, [...(byPeer.get(peer) ?? []), m.id]);
    }
    for (const [peer, ids] of byPeer) this.ctx.signals.receipt(peer, ids, 'delivered');
  }
}
