import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createAccount, goTo, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { root } from './harness.js';
import { LOWER_ADDRESS } from '../src/shared/identity-patterns.js';

function postAsBot(relayUrl: string, token: string, groupId: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // the token travels in the environment, never on a command line other users can read
    const c = spawn(
      process.execPath,
      [
        join(root, 'node_modules/tsx/dist/cli.mjs'),
        'src/main/client/cli/bot-cli.ts',
        '--relay',
        relayUrl,
        '--token-env',
        'BOT_TOKEN',
        '--group',
        groupId,
        text,
      ],
      { cwd: root, env: { ...process.env, BOT_TOKEN: token } },
    );
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`bot exited ${code}: ${err}`))));
  });
}

test('groups: create with a password, join with it, chat, and a bot posts', async ({ relay, app }) => {
  const ivy = await app('ivy');
  const jack = await app('jack');
  await createAccount(ivy.page, { relayUrl: relay.url, handle: 'ivy' });
  await createAccount(jack.page, { relayUrl: relay.url, handle: 'jack' });

  // Ivy creates a public group with a join password.
  await goTo(ivy.page, 'Groups');
  await ivy.page.getByRole('button', { name: 'New group' }).click();
  const create = ivy.page.getByRole('dialog', { name: 'New group' });
  await create.getByLabel('Group name').fill('Climbing crew');
  // Private is the default: listing a group publicly is a choice.
  await expect(create.getByRole('checkbox', { name: 'Public' })).not.toBeChecked();
  await create.getByRole('checkbox', { name: 'Public' }).check();
  await create.getByLabel('Join password (optional)').fill('granite');
  await create.getByRole('button', { name: 'Create group' }).click();
  await expect(ivy.page.getByRole('heading', { name: 'Climbing crew' })).toBeVisible();

  // Jack finds it under Discover and must give the password.
  await goTo(jack.page, 'Groups');
  await jack.page.getByRole('tab', { name: 'Discover' }).click();
  await jack.page.getByRole('button', { name: 'Climbing crew' }).click();
  await jack.page.getByRole('button', { name: 'Join group' }).click();
  const join = jack.page.getByRole('dialog', { name: 'Join Climbing crew' });
  await join.getByLabel('Group password').fill('limestone');
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(join.getByRole('alert')).toContainText('password is not right');
  await join.getByLabel('Group password').fill('granite');
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(join).toBeHidden();
  await expect(jack.page.getByRole('button', { name: 'Open chat' })).toBeVisible();

  // Group chat both ways.
  await jack.page.getByRole('button', { name: 'Open chat' }).click();
  await send(jack.page, 'Hello climbers');
  await goTo(ivy.page, 'Groups');
  await ivy.page.getByRole('tab', { name: 'My groups' }).click();
  await ivy.page.getByRole('button', { name: 'Climbing crew' }).click();
  await expect(ivy.page.getByRole('list', { name: 'Members' }).getByRole('listitem')).toHaveCount(2);
  await ivy.page.getByRole('button', { name: 'Open chat' }).click();
  await expect(messages(ivy.page).getByText('Hello climbers')).toBeVisible();
  await send(ivy.page, 'Welcome Jack!');
  await expect(messages(jack.page).getByText('Welcome Jack!')).toBeVisible();

  // Ivy mints a bot token (shown once, with Copy) and a bot posts with it.
  await ivy.page.getByRole('button', { name: 'Group info' }).click();
  await ivy.page.getByLabel('Bot name').fill('weather');
  await ivy.page.getByRole('button', { name: 'Mint token' }).click();
  const secret = ivy.page.getByRole('group', { name: 'New bot token' });
  await expect(secret.getByRole('button', { name: 'Copy bot token' })).toBeVisible();
  const token = (await secret.locator('code').textContent())!.trim();
  expect(token).toMatch(/^gtk_live_/);
  const id = (await ivy.page.getByLabel('Group ID', { exact: true }).textContent())!.trim();
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  await postAsBot(relay.url, token, id, 'Sunny, 21°C at the crag');
  await expect(messages(jack.page).getByText('Sunny, 21°C at the crag')).toBeVisible({ timeout: 30_000 });
  await expect(messages(jack.page).getByText('Bot', { exact: true })).toBeVisible();
  // the author is the token's name, not the bot's anonymous address (which stays in the tooltip)
  const author = messages(jack.page).locator('.msg-author').filter({ hasText: 'Bot' });
  await expect(author.locator('.msg-bot-name')).toHaveText('weather');
  await expect(author).toHaveAttribute('title', LOWER_ADDRESS);

  // Revoke: the token is marked revoked.
  await ivy.page.getByRole('button', { name: 'Revoke weather' }).click();
  await expect(ivy.page.getByRole('list', { name: 'Bot tokens' })).toContainText('Revoked');
  await expect(postAsBot(relay.url, token, id, 'still here?')).rejects.toThrow();
});
