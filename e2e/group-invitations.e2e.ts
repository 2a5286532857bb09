/**
 * Consent to groups (docs/protocol.md §12 Groups), as a person meets it in the app: a stranger who
 * adds me to a group only invites me; I accept or decline in Requests; someone I blocked, or
 * anyone while I take messages only from contacts, cannot reach me through a group. The
 * strangers are headless client profiles, the way a second person or a script would drive them.
 */
import type { Page } from '@playwright/test';
import { createAccount, goTo, messages } from './flows.js';
import { expect, test } from './fixtures.js';
import { clientCli, tempDir } from './harness.js';

async function cli(profile: string, args: string[]): Promise<Record<string, unknown>> {
  const r = await clientCli(profile, args);
  expect(r.code, `client ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.json[0] as Record<string, unknown>;
}

async function stranger(relayUrl: string, handle: string): Promise<string> {
  const profile = tempDir(`cli-${handle}`);
  await cli(profile, ['init', '--relay', relayUrl, '--handle', handle]);
  return profile;
}

/** Creates a private group and adds @member to it; returns the group's id and what adding did. */
async function groupWith(profile: string, name: string, member: string): Promise<{ id: string; added: unknown }> {
  const g = await cli(profile, ['group', 'create', name]);
  const res = await cli(profile, ['group', 'add', String(g.id), member]);
  return { id: String(g.id), added: res.added };
}

/** what the client CLI prints when the relay refuses to add someone (403 `blocked`) */
const BLOCKED = /blocked/i;

function conversationList(page: Page) {
  return page.getByRole('list', { name: 'Conversation list' });
}

test('group invitations: accept one and chat in the group, decline another and hear nothing from it', async ({
  relay,
  app,
}) => {
  // a dozen client CLI runs, each a process that opens its vault: minutes on a busy machine
  test.slow();
  const mara = await app('mara');
  await createAccount(mara.page, { relayUrl: relay.url, handle: 'mara' });
  const sam = await stranger(relay.url, 'sam');
  const tess = await stranger(relay.url, 'tess');

  // Strangers to me: adding me only invites me.
  const books = await groupWith(sam, 'Book club', '@mara');
  expect(books.added).toBe('invited');
  const pump = await groupWith(tess, 'Moon pump', '@mara');
  expect(pump.added).toBe('invited');

  await goTo(mara.page, 'Requests');
  const list = mara.page.getByRole('list', { name: 'Group invitations' });
  await expect(list.getByRole('article')).toHaveCount(2);
  const card = mara.page.getByRole('article', { name: 'Invitation to Book club' });
  await expect(card).toContainText('Group invitation from @sam');
  await expect(mara.page.getByRole('navigation', { name: 'Main' }).getByLabel('2 pending requests')).toBeVisible();

  // Accept: the group chat opens, the group is under Groups, and its next message arrives.
  await card.getByRole('button', { name: 'Accept invitation to Book club' }).click();
  await expect(mara.page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await cli(sam, ['group', 'send', books.id, 'Welcome, Mara! First book: Dune.']);
  await expect(messages(mara.page).getByText('Welcome, Mara! First book: Dune.')).toBeVisible({ timeout: 30_000 });
  await goTo(mara.page, 'Groups');
  await mara.page.getByRole('tabpanel', { name: 'My groups' }).getByRole('button', { name: 'Book club' }).click();
  const members = mara.page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(2);
  // only the creator names admins
  await expect(members.getByRole('button', { name: /admin/ })).toHaveCount(0);

  // Decline: the card goes, and the group's messages never reach me.
  await goTo(mara.page, 'Requests');
  await mara.page.getByRole('button', { name: 'Decline invitation to Moon pump' }).click();
  await expect(mara.page.getByRole('article', { name: 'Invitation to Moon pump' })).toBeHidden();
  await expect(mara.page.getByRole('heading', { name: 'No requests' })).toBeVisible();
  await clientCli(tess, ['group', 'send', pump.id, 'Buy $MOON now']);
  // a later message in the group I joined arrives: had the other reached me, it would be there by now too
  await cli(sam, ['group', 'send', books.id, 'Chapter one by Friday']);
  await goTo(mara.page, 'Chats');
  await conversationList(mara.page)
    .getByRole('button', { name: /Book club/ })
    .click();
  await expect(messages(mara.page).getByText('Chapter one by Friday')).toBeVisible({ timeout: 30_000 });
  await expect(conversationList(mara.page).getByRole('button', { name: /Moon pump/ })).toHaveCount(0);
  await expect(mara.page.getByText('Buy $MOON now')).toHaveCount(0);
});

test('a blocked stranger, or anyone while I take only contacts, cannot reach me through a group', async ({
  relay,
  app,
}) => {
  // a dozen client CLI runs, each a process that opens its vault: minutes on a busy machine
  test.slow();
  const nia = await app('nia');
  await createAccount(nia.page, { relayUrl: relay.url, handle: 'nia' });
  const rob = await stranger(relay.url, 'rob');
  const una = await stranger(relay.url, 'una');

  // Rob invites me; I block him from the invitation.
  const first = await groupWith(rob, 'Free money', '@nia');
  expect(first.added).toBe('invited');
  await goTo(nia.page, 'Requests');
  await nia.page
    .getByRole('article', { name: 'Invitation to Free money' })
    .getByRole('button', { name: 'Block @rob' })
    .click();
  // a block asks first
  await nia.page
    .getByRole('dialog', { name: 'Block @rob?' })
    .getByRole('button', { name: 'Block', exact: true })
    .click();
  await expect(nia.page.getByRole('article', { name: 'Invitation to Free money' })).toBeHidden();

  // His next group cannot even invite me, and nothing of either group arrives.
  const g = await cli(rob, ['group', 'create', 'Free money 2']);
  const refused = await clientCli(rob, ['group', 'add', String(g.id), '@nia']);
  expect(refused.code, refused.stderr).not.toBe(0);
  expect(refused.stderr).toMatch(BLOCKED);
  await clientCli(rob, ['group', 'send', first.id, 'Claim your prize']);
  await clientCli(rob, ['group', 'send', String(g.id), 'Last chance']);

  // Kim writes after him: once her request shows, my app has pulled everything sent before it.
  const kim = await stranger(relay.url, 'kim');
  await cli(kim, ['send', '@nia', 'Hi Nia, Kim from the climbing gym.', '--request']);
  await goTo(nia.page, 'Requests');
  await expect(nia.page.getByRole('article', { name: 'Request from @kim' })).toBeVisible({ timeout: 30_000 });
  await expect(nia.page.getByRole('list', { name: 'Group invitations' })).toHaveCount(0);
  await goTo(nia.page, 'Chats');
  await expect(conversationList(nia.page).getByRole('button', { name: /Free money/ })).toHaveCount(0);
  await expect(nia.page.getByText(/Claim your prize|Last chance/)).toHaveCount(0);

  // Only contacts: a stranger's add is refused outright, not even an invitation.
  await goTo(nia.page, 'Settings');
  await nia.page.getByRole('radio', { name: 'Only contacts' }).check();
  await nia.page.getByRole('button', { name: 'Save policy' }).click();
  await expect(nia.page.getByText('Inbox policy saved.')).toBeVisible();
  const h = await cli(una, ['group', 'create', 'Una club']);
  const refusedToo = await clientCli(una, ['group', 'add', String(h.id), '@nia']);
  expect(refusedToo.code, refusedToo.stderr).not.toBe(0);
  expect(refusedToo.stderr).toMatch(BLOCKED);
  await goTo(nia.page, 'Requests');
  await expect(nia.page.getByRole('list', { name: 'Group invitations' })).toHaveCount(0);
  await goTo(nia.page, 'Groups');
  await expect(nia.page.getByRole('tabpanel', { name: 'My groups' }).getByRole('button')).toHaveCount(0);
});

test('the creator invites a stranger, then makes them an admin and takes it back', async ({ relay, app }) => {
  const olga = await app('olga');
  await createAccount(olga.page, { relayUrl: relay.url, handle: 'olga' });
  const pete = await stranger(relay.url, 'pete');

  await goTo(olga.page, 'Groups');
  await olga.page.getByRole('button', { name: 'New group' }).click();
  const create = olga.page.getByRole('dialog', { name: 'New group' });
  await create.getByLabel('Group name').fill('Allotment');
  await create.getByRole('button', { name: 'Create group' }).click();
  await expect(olga.page.getByRole('heading', { name: 'Allotment' })).toBeVisible();
  const id = (await olga.page.getByLabel('Group ID', { exact: true }).textContent())!.trim();
  expect(id).toMatch(/^[0-9a-f-]{36}$/);

  // Pete is a stranger to me: he is invited, and the app says so rather than "added".
  await olga.page.getByLabel('Add a member').fill('@pete');
  await olga.page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(olga.page.getByRole('status').filter({ hasText: 'Invited @pete' })).toContainText(
    'They join once they accept',
  );
  await expect(olga.page.getByRole('list', { name: 'Invited' })).toContainText('@pete');
  await expect(olga.page.getByRole('list', { name: 'Members' }).getByRole('listitem')).toHaveCount(1);

  await cli(pete, ['group', 'accept', id]);
  await olga.page.getByRole('tabpanel', { name: 'My groups' }).getByRole('button', { name: 'Allotment' }).click();
  const members = olga.page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(2);
  const peteRow = members.getByRole('listitem').filter({ hasText: '@pete' });

  await peteRow.getByRole('button', { name: 'Make @pete an admin' }).click();
  await expect(peteRow.getByText('Admin', { exact: true })).toBeVisible();
  expect((await cli(pete, ['group', 'info', id])).admins).toEqual([expect.stringMatching(/^0x/)]);
  // the creator's own row has no admin control
  await expect(
    members.getByRole('listitem').filter({ hasText: 'You' }).getByRole('button', { name: /admin/ }),
  ).toHaveCount(0);

  await peteRow.getByRole('button', { name: 'Remove admin rights from @pete' }).click();
  await expect(peteRow.getByText('Admin', { exact: true })).toHaveCount(0);
  await expect(peteRow.getByRole('button', { name: 'Make @pete an admin' })).toBeVisible();
  expect((await cli(pete, ['group', 'info', id])).admins).toEqual([]);
});
