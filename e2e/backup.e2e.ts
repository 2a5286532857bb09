/**
 * Backup and restore, as a person meets them in web mode: export a backup from
 * Settings (passphrase twice, a download), then on a new profile import the recovery phrase and
 * restore it: a wrong passphrase is a plain refusal, the right one brings the conversation back.
 */
import { readFileSync } from 'node:fs';
import { expectAccessible } from './axe.js';
import { chooseRelay, createAccount, goTo, messageFromDirectory, openConversation, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { cliOk, tempDir } from './harness.js';

test('export a backup in web mode, and restore it on a new profile of the same wallet', async ({ relay, app }) => {
  test.slow();
  const alice = await app('alice');
  const words = await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await cliOk(tempDir('cli-bob'), ['init', '--relay', relay.url, '--handle', 'bob']);
  await messageFromDirectory(alice.page, 'bob');
  await send(alice.page, 'Kept in the backup: the harbour at noon');
  await send(alice.page, 'and a second message ✓');

  await goTo(alice.page, 'Settings');
  const backup = alice.page.getByRole('region', { name: 'Backup' });
  await backup.getByLabel('Backup passphrase').fill('sea shells 42');
  await backup.getByLabel('Type it again').fill('sea shells 41');
  await expect(backup.getByText('The two passphrases differ.')).toBeVisible();
  await expect(backup.getByRole('button', { name: 'Export backup' })).toBeDisabled();
  await backup.getByLabel('Type it again').fill('sea shells 42');
  const downloading = alice.page.waitForEvent('download');
  await backup.getByRole('button', { name: 'Export backup' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^relay-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.relaybackup$/);
  const file = test.info().outputPath('alice.relaybackup');
  await download.saveAs(file);
  expect(readFileSync(file).subarray(0, 8).toString()).toBe('RLYBAKUP');
  await expect(backup.getByRole('status')).toContainText('Downloaded: 1 conversation, 2 messages, 0 files.');
  await expectAccessible(alice.page, 'Settings with Backup');
  await backup.screenshot({ path: test.info().outputPath('settings-backup.png') });
  await alice.close();

  const again = await app('alice-new-computer');
  const page = again.page;
  await page.getByRole('button', { name: 'I already have a wallet' }).click();
  await page.getByRole('textbox', { name: 'Recovery phrase' }).fill(words.join(' '));
  await page.getByRole('button', { name: 'Import wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Restore from backup' })).toBeVisible();
  await page.getByLabel('Backup file (.relaybackup)').setInputFiles(file);
  await page.getByLabel('Backup passphrase').fill('not the passphrase');
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'That passphrase does not open this backup. Nothing was changed.',
  );
  await expectAccessible(page, 'Restore from backup');
  await page.screenshot({ path: test.info().outputPath('restore-step.png') });

  await page.getByLabel('Backup passphrase').fill('sea shells 42');
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  await chooseRelay(page, relay.url);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await openConversation(page, '@bob');
  await expect(page.getByText('Kept in the backup: the harbour at noon', { exact: true })).toBeVisible();
  await expect(page.getByText('and a second message ✓', { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('restored-conversation.png') });
});
