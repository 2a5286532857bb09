/**
 * The Messenger's events (the Events of src/shared/ipc.ts): subscribing, emitting so that a
 * listener's bug never breaks a sync pass, and a conversation's summary after it changed.
 */
import { EventEmitter } from 'node:events';
import type { ChatMessage, ConversationId } from '../../../shared/domain.js';
import type { EventName, Events } from '../../../shared/ipc.js';
import type { LocalStore } from '../store/local-store.js';

export interface ClientEventsDeps {
  store: LocalStore;
  /** false before a wallet exists: there is no conversation to summarise yet */
  hasIdentity(): boolean;
  /** a message deleted for everyone or expired: its kept files go off the disk */
  onMessageGone(): void;
}

export class ClientEvents {
  private readonly emitter = new EventEmitter();

  constructor(private readonly d: ClientEventsDeps) {
    this.emitter.setMaxListeners(100);
  }

  /** Subscribes to an event of ipc.ts; returns the unsubscribe function. */
  on<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void {
    this.emitter.on(event, fn as (p: unknown) => void);
    return () => this.emitter.off(event, fn as (p: unknown) => void);
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    if (event === 'message.removed' || (event === 'message.updated' && (payload as ChatMessage).deleted))
      this.d.onMessageGone();
    try {
      this.emitter.emit(event, payload);
    } catch {
      // a listener's bug must not break a sync pass (the data is already committed)
    }
  }

  emitConversation(id: ConversationId): void {
    if (!this.d.hasIdentity()) return;
    const c = this.d.store.getConversation(id);
    if (c) this.emit('conversation.updated', c);
  }

  close(): void {
    this.emitter.removeAllListeners();
  }
}
