/**
 * Contacts: requests from people we do not know yet (accept, decline, spam), blocking, the
 * handles we know for addresses, and the relay's directory and handle lookup. Each change of
 * who someone is to me (relationship.ts decides) is announced (`contact.relationship`), so that
 * every screen follows it.
 */
import type { BlockedPerson, ContactRequest, DirectoryHit, KnownHandle } from '../../../shared/domain.js';
import type { CommandArgs } from '../../../shared/ipc.js';
import { parseRecipient } from '../../../shared/recipient.js';
import type { FeatureContext, FeatureHandlers } from '../core/feature-context.js';
import { MessengerError } from '../core/messenger-error.js';
import { isTransient } from '../network/relay-api.js';
import type { Stakes } from '../stakes/stakes.js';

type ContactCommands =
  | 'requests.list'
  | 'requests.accept'
  | 'requests.decline'
  | 'requests.spam'
  | 'contacts.block'
  | 'contacts.unblock'
  | 'contacts.blocked'
  | 'contacts.handles'
  | 'directory.search';

export interface ContactsDeps extends FeatureContext {
  stakes: Stakes;
  /** asks the sync loop to look up the handles of these addresses */
  wantHandles(addresses: readonly string[]): void;
  /** a request was accepted: its messages are acknowledged to their sender */
  requestAccepted?(address: string): void;
}

export class Contacts {
  constructor(private readonly ctx: ContactsDeps) {}

  handlers(): FeatureHandlers<ContactCommands> {
    return {
      'requests.list': async () => this.listRequests(),
      'requests.accept': (a) => this.acceptRequest(a),
      'requests.decline': (a) => this.declineRequest(a),
      'requests.spam': async (a) => {
        await this.ctx.stakes.forfeitFrom(a.address);
        await this.block(a);
      },
      'contacts.block': (a) => this.block(a),
      'contacts.unblock': (a) => this.unblock(a),
      'contacts.blocked': async () => this.blocked(),
      'contacts.handles': async (a) => this.knownHandles(a.addresses),
      'directory.search': (a) => this.searchDirectory(a),
    };
  }

  listRequests(): ContactRequest[] {
    return this.ctx.store.listRequests();
  }

  /** Allows the sender on the relay (later messages reach the inbox) and shows the conversation. */
  async acceptRequest(a: CommandArgs<'requests.accept'>): Promise<void> {
    const address = a.address.toLowerCase();
    await this.ctx.stakes.releaseFrom(address);
    await this.ctx.ready().allow(address);
    this.ctx.store.acceptRequest(address, this.ctx.nowMs());
    this.ctx.requestAccepted?.(address);
    this.changed(address);
  }

  /** Forgets the sender and what they wrote, here and on the relay's allow list. */
  async declineRequest(a: CommandArgs<'requests.decline'>): Promise<void> {
    const address = a.address.toLowerCase();
    this.ctx.store.declineRequest(address);
    this.changed(address);
    try {
      await this.ctx.ready().forget(address);
    } catch (e) {
      if (!isTransient(e)) throw e;
    }
  }

  /** Blocked on the relay and here; a waiting request is kept, hidden, for an unblock (or Undo) to bring back. */
  async block(a: CommandArgs<'contacts.block'>): Promise<void> {
    const address = a.address.toLowerCase();
    await this.ctx.ready().block(address);
    this.ctx.store.blockContact(address, this.ctx.nowMs());
    this.changed(address);
  }

  /** The handles known for these addresses; the others are looked up and announced (`contact.updated`). */
  knownHandles(addresses: readonly string[]): KnownHandle[] {
    const known: KnownHandle[] = [];
    for (const a of new Set(addresses.map((x) => x.toLowerCase()))) {
      const c = this.ctx.store.getContact(a);
      if (c?.handle) known.push({ address: a, handle: c.handle, verified: c.verified });
    }
    this.ctx.wantHandles(addresses);
    return known;
  }

  /** Ends a block; someone whose request was waiting when they were blocked is back in Requests. */
  async unblock(a: CommandArgs<'contacts.unblock'>): Promise<void> {
    const address = a.address.toLowerCase();
    await this.ctx.ready().unblock(address);
    const { restored } = this.ctx.store.relationships.unblock(address, this.ctx.nowMs());
    const request = restored ? this.ctx.store.getRequest(address) : null;
    if (request) this.ctx.emit('request.new', request);
    this.changed(address);
  }

  blocked(): BlockedPerson[] {
    return this.ctx.store.relationships.blocked();
  }

  /** Who `address` is to me now, for the screens that show them. */
  relationshipOf(address: string) {
    return this.ctx.store.relationships.of(address, this.ctx.me().address);
  }

  /** Announces who `address` is to me now, and their conversation's summary, which carries it. */
  private changed(address: string): void {
    this.ctx.emit('contact.relationship', { address, relationship: this.relationshipOf(address) });
    this.ctx.emitConversation(`direct:${address}`);
  }

  /** Allows an address without a pending request (CLI `allow`). */
  async allow(address: string): Promise<void> {
    const a = address.toLowerCase();
    await this.ctx.ready().allow(a);
    this.ctx.store.acceptRequest(a, this.ctx.nowMs());
    this.changed(a);
  }

  async searchDirectory(a: CommandArgs<'directory.search'>): Promise<DirectoryHit[]> {
    const hits = await this.ctx.ready().directory(a.q, 20);
    return hits.map((h) => {
      const address = h.address.toLowerCase();
      return { handle: h.handle, address, verified: h.verified, relationship: this.relationshipOf(address) };
    });
  }

  /** `0x…` as is; `@name` (or `name`) through the relay's handle lookup. */
  async resolveRecipient(to: string): Promise<string> {
    const r = parseRecipient(to);
    if ('problem' in r) throw new MessengerError('bad-argument', r.problem);
    if (r.kind === 'address') return r.address;
    let rec;
    try {
      rec = await this.ctx.ready().resolveHandle(r.handle);
    } catch (e) {
      // Offline, a contact we already know by this handle is still who it names: the message
      // can wait in the outbox like any other. (Online, the relay's answer wins: handles move.)
      const known = isTransient(e) ? this.ctx.store.findContactByHandle(r.handle) : null;
      if (known) return known.address;
      throw e;
    }
    if (!rec) throw new MessengerError('not-found', `no one has claimed the handle @${r.handle}`);
    const address = rec.address.toLowerCase();
    this.ctx.store.setContactHandle(address, rec.handle, rec.verified, this.ctx.nowMs());
    return address;
  }
}
