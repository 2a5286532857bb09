/**
 * Group admins through the client (docs/protocol.md §12 Groups): the creator names and unnames them
 * (`groups.addAdmin` / `groups.removeAdmin`, and the CLI's `group admin` / `group unadmin`);
 * an admin adds and removes members but not the creator; the relay refuses the same to a
 * plain member, and to an admin once unnamed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayError } from '../../network/relay-api.js';
import { cleanup, newProfile, runEntry, startRelay, type Relay } from '../../test/harness.js';

type Profile = Awaited<ReturnType<typeof newProfile>>;
let relay: Relay;
let gia: Profile; // creator
let hal: Profile; // made admin
let ivy: Profile; // plain member
let jon: Profile; // added by the admin
let groupId: string;

beforeAll(async () => {
  relay = await startRelay();
  // one at a time: several wallets derived at once can starve each vault on a loaded machine
  gia = await newProfile(relay.url, { handle: 'gia' });
  hal = await newProfile(relay.url, { handle: 'hal' });
  ivy = await newProfile(relay.url, { handle: 'ivy' });
  jon = await newProfile(relay.url, { handle: 'jon' });
  for (const p of [hal, ivy]) await p.m.contacts.allow(gia.address);
  await jon.m.contacts.allow(hal.address);
  groupId = (await gia.m.groups.create({ name: 'Rota', isPublic: false })).id;
  for (const p of [hal, ivy]) await gia.m.groups.addMember({ groupId, member: p.address });
}, 120_000);
afterAll(cleanup);

async function refusal(p: Promise<unknown>): Promise<number> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  if (!(e instanceof RelayError)) throw new Error(`expected a refusal from the relay, got ${String(e)}`);
  return e.status;
}

describe('group admins', { timeout: 120_000 }, () => {
  it('a plain member can neither manage members nor name admins', async () => {
    expect(await refusal(ivy.m.groups.removeMember({ groupId, address: hal.address }))).toBe(403);
    expect(await refusal(ivy.m.groups.setAdmin({ groupId, address: ivy.address }, true))).toBe(403);
  });

  it('the creator names an admin from the CLI, who then adds and removes members, but not the creator', async () => {
    const named = await runEntry('cli', ['--profile', gia.dir, 'group', 'admin', groupId, hal.address]);
    expect(named.code, named.stderr).toBe(0);
    expect(named.json[0]).toMatchObject({ id: groupId, admins: [hal.address] });
    const seen = await hal.m.groups.get({ groupId });
    expect(seen).toMatchObject({ admins: [hal.address], canManage: true, isCreator: false });

    const added = await hal.m.groups.addMember({ groupId, member: '@jon' });
    expect(added).toMatchObject({ added: 'member' });
    expect(added.members).toContain(jon.address);
    expect((await hal.m.groups.removeMember({ groupId, address: ivy.address })).members).not.toContain(ivy.address);
    expect(await refusal(hal.m.groups.removeMember({ groupId, address: gia.address }))).toBe(403);
    // only the creator names admins
    expect(await refusal(hal.m.groups.setAdmin({ groupId, address: jon.address }, true))).toBe(403);
  });

  it('unnamed, the admin loses those rights', async () => {
    const after = await gia.m.groups.setAdmin({ groupId, address: hal.address }, false);
    expect(after.admins).toEqual([]);
    expect((await hal.m.groups.get({ groupId })).canManage).toBe(false);
    expect(await refusal(hal.m.groups.removeMember({ groupId, address: jon.address }))).toBe(403);
  });
});
