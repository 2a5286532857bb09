/**
 * Contacts: requests from people we do not know yet (accept, decline, spam), blocking, the
 * handles we know for addresses, and the relay's directory and handle lookup.
 */
import type { ContactRequest, DirectoryHit, KnownHandle } from '../../../shared/domain.js';
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
    this.ctx.emitConversation(`direct:${address}`);
  }

  /** Forgets the sender and what they wrote, here and on the relay's allow list. */
  async declineRequest(a: CommandArgs<'requests.decline'>): Promise<void> {
    const address = a.address.toLowerCase();
    this.ctx.store.declineRequest(address);
    try {
      await this.ctx.ready().forget(address);
    } catch (e) {
      if (!isTransient(e)) throw e;
    }
  }

  async block(a: CommandArgs<'contacts.block'>): Promise<void> {
    const address = a.address.toLowerCase();
    await this.ctx.ready().block(address);
    this.ctx.store.blockContact(address, this.ctx.nowMs());
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

  async unblock(a: CommandArgs<'contacts.unblock'>): Promise<void> {
    const address = a.address.toLowerCase();
    await this.ctx.ready().unblock(address);
    this.ctx.store.setContactState(address, 'known', this.ctx.nowMs());
    this.ctx.emitConversation(`direct:${address}`);
  }

  /** Allows an address without a pending request (CLI `allow`). */
  async allow(address: string): Promise<void> {
    const a = address.toLowerCase();
    await this.ctx.ready().allow(a);
    this.ctx.store.acceptRequest(a, this.ctx.nowMs());
  }

  async searchDirectory(a: CommandArgs<'directory.search'>): Promise<DirectoryHit[]> {
    const hits = await this.ctx.ready().directory(a.q, 20);
    return hits.map((h) => ({ handle: h.handle, address: h.address.toLowerCase(), verified: h.verified }));
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
