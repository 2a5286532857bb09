/**
 * Edits, deletes and disappearing messages (wire format kinds edit, delete, timer and the
 * field expiresIn), between real profiles on a real relay: an edit or delete from either
 * device of the sender reaches the peer and the sender's other device; only the author's
 * count; one that arrives before its message is applied when the message comes; a timer makes
 * messages vanish at the right moment under a fake clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ConversationId, RejectedMessage } from '../../../../shared/domain.js';
import type { Events } from '../../../../shared/ipc.js';
import { LocalStore, type IncomingMessage } from '../../store/local-store.js';
import type { Messenger } from '../../core/messenger.js';
import type { ScheduleTimer } from '../message-changes.js';
import type { Outbox } from '../../core/outbox.js';
import { cleanup, newProfile, startRelay, tempDir, type Relay } from '../../test/harness.js';

type Profile = Awaited<ReturnType<typeof newProfile>>;
let relay: Relay;
let ann1: Profile; // ann's first device
let ann2: Profile; // ann's second device (same wallet)
let bob: Profile;
let annToBob: ConversationId;
let bobToAnn: ConversationId;

beforeAll(async () => {
  relay = await startRelay();
  ann1 = await newProfile(relay.url, { handle: 'ann_e' });
  ann2 = await newProfile(relay.url, { mnemonic: ann1.mnemonic! });
  bob = await newProfile(relay.url, { handle: 'bob_e' });
  annToBob = `direct:${bob.address}`;
  bobToAnn = `direct:${ann1.address}`;
  await bob.m.contacts.allow(ann1.address);
  await ann1.m.contacts.allow(bob.address);
}, 120_000);
afterAll(cleanup);

function outboxOf(m: Messenger): Outbox {
  return m['outbox'];
}

describe('edit and delete', { timeout: 60_000 }, () => {
  it("an edit from one device and a delete from the other reach the peer and the sender's other device", async () => {
    const { message } = await ann1.m.messages.sendAndWait(annToBob, 'see you at 5');
    await bob.m.syncPass();
    await ann2.m.syncPass();
    expect(ann2.m.store.getMessage(message.id)).toMatchObject({ text: 'see you at 5', fromMe: true, editedAt: null });

    const edited = ann1.m.changes.edit({ conversationId: annToBob, messageId: message.id, text: 'see you at 6' });
    expect(edited).toMatchObject({ text: 'see you at 6', editedAt: expect.any(String), deleted: false });
    await ann1.m.messages.flushOutbox(true);
    await bob.m.syncPass();
    await ann2.m.syncPass();
    expect(bob.m.store.getMessage(message.id)).toMatchObject({
      text: 'see you at 6',
      editedAt: edited.editedAt,
      fromMe: false,
    });
    expect(ann2.m.store.getMessage(message.id)).toMatchObject({ text: 'see you at 6', editedAt: edited.editedAt });

    // the second device deletes it: the peer and the first device follow
    const deleted = ann2.m.changes.delete({ conversationId: annToBob, messageId: message.id });
    expect(deleted).toMatchObject({ deleted: true, text: '' });
    await ann2.m.messages.flushOutbox(true);
    await bob.m.syncPass();
    await ann1.m.syncPass();
    for (const p of [bob, ann1]) expect(p.m.store.getMessage(message.id)).toMatchObject({ deleted: true, text: '' });
    // a later edit of a deleted message changes nothing
    expect(() => ann1.m.changes.edit({ conversationId: annToBob, messageId: message.id, text: 'back' })).toThrow(
      /deleted/,
    );
  });

  it('a message deleted while it waits in the outbox is withdrawn: it never reaches anyone, and no delete goes out', async () => {
    const queued = outboxOf(ann1.m).enqueue({ kind: 'direct', peer: bob.address }, 'sent to the wrong person', 'text');
    const removed: Events['message.removed'][] = [];
    const stop = ann1.m.on('message.removed', (r) => removed.push(r));
    try {
      const answer = ann1.m.changes.delete({ conversationId: annToBob, messageId: queued.id });
      expect(answer).toMatchObject({ id: queued.id, removed: true, deleted: true });
      expect(removed).toEqual([{ conversationId: annToBob, ids: [queued.id] }]);
    } finally {
      stop();
    }
    expect(ann1.m.store.getMessage(queued.id)).toBeNull();
    expect(ann1.m.store.outboxCount()).toBe(0);
    // nothing to send: neither the message nor a delete of it reaches bob or ann's other device
    expect(await ann1.m.messages.flushOutbox(true)).toEqual([]);
    await bob.m.syncPass();
    await ann2.m.syncPass();
    for (const p of [bob, ann2]) expect(p.m.store.getMessage(queued.id)).toBeNull();

    // one a send has already taken is deleted for everyone as usual
    const inFlight = outboxOf(ann1.m).enqueue({ kind: 'direct', peer: bob.address }, 'already on its way', 'text');
    const sending = ann1.m.messages.flushOutbox(true);
    expect(ann1.m.changes.delete({ conversationId: annToBob, messageId: inFlight.id })).toMatchObject({
      deleted: true,
      text: '',
    });
    await sending;
    await ann1.m.messages.flushOutbox(true);
    await bob.m.syncPass();
    expect(bob.m.store.getMessage(inFlight.id)).toMatchObject({ deleted: true, text: '' });
  });

  it('only the author edits or deletes: the command refuses, and a forged change is refused and reported', async () => {
    const { message } = await ann1.m.messages.sendAndWait(annToBob, 'my words');
    await bob.m.syncPass();
    expect(() => bob.m.changes.edit({ conversationId: bobToAnn, messageId: message.id, text: 'your words' })).toThrow(
      /only your own/,
    );
    expect(() => bob.m.changes.delete({ conversationId: bobToAnn, messageId: message.id })).toThrow(/only your own/);

    // bob's client sends the change anyway (past the command's check): ann's devices refuse it
    outboxOf(bob.m).enqueueChange(
      { kind: 'direct', peer: ann1.address },
      { kind: 'edit', of: message.id, text: 'forged' },
    );
    outboxOf(bob.m).enqueueChange({ kind: 'direct', peer: ann1.address }, { kind: 'delete', of: message.id });
    await bob.m.messages.flushOutbox(true);
    const rejected: RejectedMessage[] = [];
    ann1.m.on('message.rejected', (r) => rejected.push(r));
    await ann1.m.syncPass();
    expect(ann1.m.store.getMessage(message.id)).toMatchObject({ text: 'my words', editedAt: null, deleted: false });
    // the two forged changes may come off the relay in either order
    expect(rejected.map((r) => [r.claimedSender, r.reason]).sort()).toEqual([
      [bob.address, `${bob.address} may not delete a message by ${ann1.address}`],
      [bob.address, `${bob.address} may not edit a message by ${ann1.address}`],
    ]);
  });

  it('works in a group, from either device of the author', async () => {
    const g = await ann1.m.groups.create({ name: 'Edits', isPublic: false });
    await ann1.m.groups.addMember({ groupId: g.id, member: bob.address });
    const conv = `group:${g.id}` as const;
    const { message } = await ann1.m.messages.sendAndWait(conv, 'group typo');
    await ann2.m.syncPass();
    await bob.m.syncPass();
    ann2.m.changes.edit({ conversationId: conv, messageId: message.id, text: 'group text' });
    await ann2.m.messages.flushOutbox(true);
    await bob.m.syncPass();
    await ann1.m.syncPass();
    for (const p of [bob, ann1])
      expect(p.m.store.getMessage(message.id)).toMatchObject({ text: 'group text', editedAt: expect.any(String) });
  });
});

describe('an edit that arrives before its message', () => {
  const PEER = '0x' + '22'.repeat(20);
  const OTHER = '0x' + '33'.repeat(20);
  function incoming(over: Partial<IncomingMessage>): IncomingMessage {
    const id = globalThis.crypto.randomUUID();
    return {
      id,
      envelopeId: id,
      conversationId: `direct:${PEER}`,
      conversationKind: 'direct',
      peer: PEER,
      author: PEER,
      fromMe: false,
      kind: 'text',
      text: 'original',
      sentAt: '2026-01-01T00:00:00.000Z',
      receivedAt: '2026-01-01T00:00:01.000Z',
      routed: 'inbox',
      via: null,
      botName: null,
      isRequest: false,
      ...over,
    };
  }

  it('is kept and applied when the message arrives, if it is by the same author', () => {
    const store = LocalStore.open(join(tempDir('edits'), 'client.db'));
    const message = incoming({});
    const edit = incoming({
      kind: 'text',
      text: 'edited',
      sentAt: '2026-01-01T00:01:00.000Z',
      control: { kind: 'edit', of: message.id, text: 'edited' },
    });
    expect(store.applyIncoming([edit], [], 0)).toMatchObject({ messages: [], changed: [], refused: [] });
    const applied = store.applyIncoming([message], [], 0);
    expect(applied.messages).toMatchObject([{ id: message.id, text: 'edited', editedAt: '2026-01-01T00:01:00.000Z' }]);

    // someone else's early "delete" of a message is refused when it arrives, and the message stays
    const second = incoming({});
    const forged = incoming({
      author: OTHER,
      sentAt: '2026-01-01T00:02:00.000Z',
      control: { kind: 'delete', of: second.id },
    });
    store.applyIncoming([forged], [], 0);
    const later = store.applyIncoming([second], [], 0);
    expect(later.messages).toMatchObject([{ id: second.id, text: 'original', deleted: false }]);
    expect(later.refused).toEqual([
      { envelopeId: second.envelopeId, author: PEER, reason: `${OTHER} may not delete a message by ${PEER}` },
    ]);
    store.close();
  });

  it('the newest edit wins whatever the order they come in', () => {
    const store = LocalStore.open(join(tempDir('edits'), 'client.db'));
    const message = incoming({});
    const newer = incoming({
      sentAt: '2026-01-01T00:02:00.000Z',
      control: { kind: 'edit', of: message.id, text: 'second' },
    });
    const older = incoming({
      sentAt: '2026-01-01T00:01:00.000Z',
      control: { kind: 'edit', of: message.id, text: 'first' },
    });
    store.applyIncoming([message, newer, older], [], 0);
    expect(store.getMessage(message.id)).toMatchObject({ text: 'second', editedAt: '2026-01-01T00:02:00.000Z' });
    store.close();
  });
});

/** A clock the test moves, and the one expiry timer the client arms on it. */
function fakeTime() {
  const clock = { t: Date.now(), armed: null as null | { fn: () => void; at: number } };
  const schedule: ScheduleTimer = (fn, ms) => {
    const armed = { fn, at: clock.t + ms };
    clock.armed = armed;
    return () => {
      if (clock.armed === armed) clock.armed = null;
    };
  };
  /** moves the clock to `at` and fires the timer if it is due by then */
  const advanceTo = (at: number): void => {
    clock.t = at;
    const armed = clock.armed;
    if (armed && armed.at <= at) {
      clock.armed = null;
      armed.fn();
    }
  };
  return { clock, options: { now: () => clock.t, expiryTimer: schedule }, advanceTo };
}

describe('disappearing messages under a fake clock', { timeout: 90_000 }, () => {
  it("a timer notice reaches the peer; messages vanish the timer's length after sending (own) or reading (theirs)", async () => {
    const annTime = fakeTime();
    const bobTime = fakeTime();
    const ann = await newProfile(relay.url, { options: annTime.options });
    const bo = await newProfile(relay.url, { options: bobTime.options });
    await bo.m.contacts.allow(ann.address);
    const conv: ConversationId = `direct:${bo.address}`;
    await ann.m.conversations.open({ to: bo.address });

    const set = ann.m.changes.setTimer({ conversationId: conv, seconds: 300 });
    expect(set.timerSeconds).toBe(300);
    const { message } = await ann.m.messages.sendAndWait(conv, 'this will vanish');
    await ann.m.messages.flushOutbox(true);
    const sentAt = Date.parse(message.sentAt);
    expect(ann.m.store.getMessage(message.id)).toMatchObject({
      expiresIn: 300,
      expiresAt: new Date(sentAt + 300_000).toISOString(),
    });
    expect(annTime.clock.armed?.at).toBe(sentAt + 300_000);

    // the peer: the notice sets their timer; the message waits until it is read there
    await bo.m.syncPass();
    const theirs: ConversationId = `direct:${ann.address}`;
    expect(bo.m.store.getConversation(theirs)!.timerSeconds).toBe(300);
    expect(
      bo.m.messages
        .listMessages({ conversationId: theirs })
        .map((m) => [m.timerSeconds, m.text, m.expiresIn, m.expiresAt]),
    ).toEqual([
      [300, '', null, null],
      [null, 'this will vanish', 300, null],
    ]);

    const removed: Array<Events['message.removed']> = [];
    ann.m.on('message.removed', (r) => removed.push(r));
    annTime.advanceTo(sentAt + 299_999);
    expect(ann.m.store.getMessage(message.id)).not.toBeNull();
    annTime.advanceTo(sentAt + 300_000);
    expect(ann.m.store.getMessage(message.id)).toBeNull();
    expect(removed).toEqual([{ conversationId: conv, ids: [message.id] }]);

    // unread on the peer's device, it stays however long that takes
    bobTime.advanceTo(bobTime.clock.t + 3_600_000);
    bo.m.changes.expireDue();
    expect(bo.m.store.getMessage(message.id)).not.toBeNull();
    const readAt = bobTime.clock.t;
    bo.m.conversations.markRead({ conversationId: theirs });
    expect(bo.m.store.getMessage(message.id)!.expiresAt).toBe(new Date(readAt + 300_000).toISOString());
    bobTime.advanceTo(readAt + 299_999);
    expect(bo.m.store.getMessage(message.id)).not.toBeNull();
    bobTime.advanceTo(readAt + 300_000);
    expect(bo.m.store.getMessage(message.id)).toBeNull();
    // the timer notice itself stays, as does the conversation
    expect(bo.m.messages.listMessages({ conversationId: theirs }).map((m) => m.timerSeconds)).toEqual([300]);

    // turning it off: later messages carry no timer
    ann.m.changes.setTimer({ conversationId: conv, seconds: 0 });
    const { message: kept } = await ann.m.messages.sendAndWait(conv, 'this stays');
    expect(ann.m.store.getMessage(kept.id)).toMatchObject({ expiresIn: null, expiresAt: null });
    await bo.m.syncPass();
    expect(bo.m.store.getConversation(theirs)!.timerSeconds).toBe(0);
    expect(bo.m.store.getMessage(kept.id)).toMatchObject({ expiresIn: null });
  });
});
