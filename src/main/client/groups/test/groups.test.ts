/**
 * A three-member group where one member has two devices (two profiles importing the same
 * wallet): member posts and bot posts reach every device, each opening its own copy; a
 * removed member gets nothing more; joining with a password; bot tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId } from '../../../../shared/domain.js';
import { postAsBot } from '../../cli/bot.js';
import { RelayError } from '../../network/relay-api.js';
import { cleanup, newProfile, startRelay, tempDir, type Relay } from '../../test/harness.js';

type Profile = Awaited<ReturnType<typeof newProfile>>;
let relay: Relay;
let ann: Profile; // creator
let ben: Profile;
let cat1: Profile; // cat, first device
let cat2: Profile; // cat, second device (same wallet)
let groupId: string;
let conv: ConversationId;

beforeAll(async () => {
  relay = await startRelay();
  // one at a time: three wallets derived at once can starve each vault past its answer timeout on a loaded machine
  ann = await newProfile(relay.url, { handle: 'ann' });
  ben = await newProfile(relay.url, { handle: 'ben' });
  cat1 = await newProfile(relay.url, { handle: 'cat' });
  cat2 = await newProfile(relay.url, { mnemonic: cat1.mnemonic! });
}, 90_000);
afterAll(cleanup);

async function texts(
  p: Profile,
): Promise<Array<{ from: string; text: string; fromMe: boolean; via: string | null; botName?: string }>> {
  await p.m.syncPass();
  // botName only where set, so that people's messages compare as before
  return p.m.messages.listMessages({ conversationId: conv }).map((m) => ({
    from: m.from,
    text: m.text,
    fromMe: m.fromMe,
    via: m.via,
    ...(m.botName === null ? {} : { botName: m.botName }),
  }));
}

describe('groups', () => {
  it('the same wallet on two devices has two certified device keys', async () => {
    expect(cat2.address).toBe(cat1.address);
    expect(cat2.deviceKey).not.toBe(cat1.deviceKey);
    const devices = await cat1.m.account.listDevices();
    expect(devices.map((d) => d.publicKey).sort()).toEqual([cat1.deviceKey, cat2.deviceKey].sort());
    expect(devices.find((d) => d.current)!.publicKey).toBe(cat1.deviceKey);
  });

  it('the creator makes a group and adds members by address and by handle', async () => {
    const g = await ann.m.groups.create({ name: 'Hikers', isPublic: false });
    groupId = g.id;
    conv = `group:${groupId}`;
    expect(g).toMatchObject({
      name: 'Hikers',
      isMember: true,
      isCreator: true,
      creatorAddress: ann.address,
      memberCount: 1,
    });
    // ben has never heard of ann: he is only invited, and joins when he accepts
    const invited = await ann.m.groups.addMember({ groupId, member: ben.address });
    expect(invited).toMatchObject({
      added: 'invited',
      members: [ann.address],
      invited: [ben.address],
      canManage: true,
    });
    expect(await ben.m.groups.listInvitations()).toEqual([
      { groupId, name: 'Hikers', creatorAddress: ann.address, invitedBy: ann.address, invitedAt: expect.any(String) },
    ]);
    expect(await ben.m.groups.acceptInvitation({ groupId })).toMatchObject({
      id: groupId,
      isMember: true,
      members: [ann.address, ben.address],
    });
    // cat allows ann: she is in at once
    await cat1.m.contacts.allow(ann.address);
    const after = await ann.m.groups.addMember({ groupId, member: '@cat' });
    expect(after.added).toBe('member');
    expect(after.members!.sort()).toEqual([ann.address, ben.address, cat1.address].sort());
    expect((await ann.m.groups.listMine()).map((x) => x.id)).toContain(groupId);
  });

  it("a member's message reaches every device of every other member, each with its own copy", async () => {
    const { outcome } = await ann.m.messages.sendAndWait(conv, 'trail starts at 9');
    expect(outcome.state).toBe('sent');
    const copies = outcome.deliveries.map((d) => [d.address, d.deviceKey]).sort();
    expect(copies).toEqual(
      [
        [ben.address, ben.deviceKey],
        [cat1.address, cat1.deviceKey],
        [cat2.address, cat2.deviceKey],
      ].sort(),
    );
    expect(outcome.deliveries.every((d) => d.routed === 'inbox')).toBe(true);

    for (const p of [ben, cat1, cat2]) {
      expect(await texts(p)).toEqual([{ from: ann.address, text: 'trail starts at 9', fromMe: false, via: 'api-key' }]);
    }
    // members learn the group's name from the relay on first sight
    expect(ben.m.conversations.list().find((c) => c.id === conv)?.title).toBe('Hikers');
  });

  it("a post from one of cat's devices shows on her other device as her own", async () => {
    const { outcome } = await cat1.m.messages.sendAndWait(conv, 'I bring snacks');
    const to = outcome.deliveries.map((d) => d.deviceKey).sort();
    expect(to).toEqual([ann.deviceKey, ben.deviceKey, cat2.deviceKey].sort());
    expect((await texts(cat2)).at(-1)).toEqual({
      from: cat1.address,
      text: 'I bring snacks',
      fromMe: true,
      via: 'api-key',
    });
    expect((await texts(ann)).at(-1)).toEqual({
      from: cat1.address,
      text: 'I bring snacks',
      fromMe: false,
      via: 'api-key',
    });
  });

  it("a bot's post reaches every device with the bot as author", async () => {
    const minted = await ann.m.groups.mintBotToken({ groupId, name: 'weather' });
    expect(minted.token).toMatch(/^gtk_live_/);
    expect((await ann.m.groups.listBotTokens({ groupId })).map((t) => t.name)).toEqual(['weather']);
    const botDir = tempDir('bot');
    const res = await postAsBot({
      relayUrl: relay.url,
      token: minted.token,
      groupId,
      text: 'rain at noon',
      profileDir: botDir,
      passphrase: 'bot-pass',
    });
    expect(res.via).toBe('group-token');
    expect(res.relaySender).toBe(ann.address);
    expect(res.from).not.toBe(ann.address);
    expect(res.devices.map((d) => d.deviceKey).sort()).toEqual(
      [ann.deviceKey, ben.deviceKey, cat1.deviceKey, cat2.deviceKey].sort(),
    );

    for (const p of [ann, ben, cat1, cat2]) {
      expect((await texts(p)).at(-1)).toEqual({
        from: res.from,
        text: 'rain at noon',
        fromMe: false,
        via: 'group-token',
        botName: 'weather',
      });
    }
    // the same bot profile keeps its wallet
    const again = await postAsBot({
      relayUrl: relay.url,
      token: minted.token,
      groupId,
      text: 'clearing later',
      profileDir: botDir,
      passphrase: 'bot-pass',
    });
    expect(again.from).toBe(res.from);

    await ann.m.groups.revokeBotToken({ groupId, tokenId: minted.botToken.id });
    await expect(
      postAsBot({ relayUrl: relay.url, token: minted.token, groupId, text: 'revoked', passphrase: '' }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it('a removed member gets nothing more', async () => {
    const before = (await texts(ben)).length;
    const info = await ann.m.groups.removeMember({ groupId, address: ben.address });
    expect(info.members).not.toContain(ben.address);
    const { outcome } = await ann.m.messages.sendAndWait(conv, 'ben is gone');
    expect(outcome.deliveries.map((d) => d.address)).not.toContain(ben.address);
    expect((await texts(ben)).length).toBe(before);
    expect((await texts(cat2)).at(-1)!.text).toBe('ben is gone');
    // and he can no longer post
    const { outcome: refused } = await ben.m.messages.sendAndWait(conv, 'let me back');
    expect(refused.state).toBe('failed');
    await expect(ben.m.groups.get({ groupId })).resolves.toMatchObject({ isMember: false });
  });

  it('a revoked device is no longer sealed to, and its key stops working', async () => {
    await cat1.m.account.revokeDevice({ publicKey: cat2.deviceKey });
    expect((await cat1.m.account.listDevices()).map((d) => d.publicKey)).toEqual([cat1.deviceKey]);
    const { outcome } = await ann.m.messages.sendAndWait(conv, 'who is still here?');
    expect(outcome.deliveries.map((d) => d.deviceKey)).not.toContain(cat2.deviceKey);
    expect(outcome.deliveries.map((d) => d.deviceKey)).toContain(cat1.deviceKey);
    await expect(cat2.m.syncPass()).rejects.toMatchObject({ status: 401 });
  });

  it('a public group is joined with its password', async () => {
    const g = await ann.m.groups.create({ name: 'Open club', isPublic: true, password: 's3cret' });
    expect(g.hasPassword).toBe(true);
    expect((await ben.m.groups.listPublic()).map((x) => x.id)).toContain(g.id);
    await expect(ben.m.groups.join({ groupId: g.id, password: 'wrong' })).rejects.toBeInstanceOf(RelayError);
    const joined = await ben.m.groups.join({ groupId: g.id, password: 's3cret' });
    expect(joined).toMatchObject({ isMember: true, isCreator: false });
    const { outcome } = await ben.m.messages.sendAndWait(`group:${g.id}`, 'hi club');
    expect(outcome.deliveries.map((d) => d.address)).toEqual([ann.address]);
    await ann.m.syncPass();
    expect(ann.m.messages.listMessages({ conversationId: `group:${g.id}` }).map((m) => m.text)).toEqual(['hi club']);
    await ben.m.groups.leave({ groupId: g.id });
    expect((await ann.m.groups.get({ groupId: g.id })).members).toEqual([ann.address]);
  });
});
