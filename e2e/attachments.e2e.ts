/**
 * Files between two apps: an image pasted into the message box arrives with the
 * sender's preview, shown before the file itself is fetched; a PDF picked with the attach button
 * is saved on the other side as the same bytes; a file dropped while the relay is down fails to
 * upload, shows Retry, and Retry sends it once the relay is back.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import { acceptRequest, createAccount, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { tempDir } from './harness.js';

// The page-side code is written as strings (expressions, not functions: a string is evaluated,
// never called): this project's e2e types have no DOM.

/** Pastes a PNG drawn in the page into the message box, as a screenshot pasted from the clipboard would be. */
async function pasteImage(page: Page, name: string): Promise<void> {
  await page.evaluate(`(async () => {
    const box = document.querySelector('textarea[aria-label="Message"]');
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 400;
    const ctx = canvas.getContext('2d');
    const g = ctx.createLinearGradient(0, 0, 640, 400);
    g.addColorStop(0, '#f97316');
    g.addColorStop(1, '#4f46e5');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, 640, 400);
    ctx.fillStyle = '#fff';
    ctx.beginPath();
    ctx.arc(320, 200, 110, 0, Math.PI * 2);
    ctx.fill();
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    const dt = new DataTransfer();
    dt.items.add(new File([blob], ${JSON.stringify(name)}, { type: 'image/png' }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  })()`);
}

/** Drops a file on the conversation, as from a file manager. */
async function dropFile(page: Page, name: string, bytes: Buffer, type: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(`(() => {
    const bin = atob(${JSON.stringify(bytes.toString('base64'))});
    const arr = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) arr[i] = bin.charCodeAt(i);
    const dt = new DataTransfer();
    dt.items.add(new File([arr], ${JSON.stringify(name)}, { type: ${JSON.stringify(type)} }));
    return dt;
  })()`);
  const target = messages(page);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

async function screenshots(page: Page, path: (name: string) => string, name: string): Promise<void> {
  await page.screenshot({ path: path(`${name}-light.png`) });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path(`${name}-dark.png`) });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('send an image and a PDF between two apps; a failed upload retries', async ({ relay, app }, testInfo) => {
  // two apps, a relay stopped and started, and the other app's sync backing off meanwhile
  test.setTimeout(420_000);
  const shot = (name: string) => testInfo.outputPath(name);
  const alice = await app('alice');
  const bob = await app('bob');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  await messageFromDirectory(alice.page, 'bob');
  await send(alice.page, 'Hi Bob');
  await acceptRequest(bob.page, 'alice');

  // Bob's page notes whether the preview was on screen while the file was still pending (his app
  // fetches files on its own, so by the time a locator looks the file may be saved already)
  await bob.page.evaluate(`{
    window.previewWhilePending = false;
    new MutationObserver(() => {
      if (document.querySelector('.msg-file[data-state="pending"] img.msg-file-preview')) window.previewWhilePending = true;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  }`);

  // an image, pasted: a chip with its preview, removable, then sent with a caption
  await pasteImage(alice.page, 'sunset.png');
  const chips = alice.page.getByRole('list', { name: 'Files to send' });
  await expect(chips.getByText('sunset.png')).toBeVisible();
  await expect(chips.locator('img.draft-file-thumb')).toHaveCount(1);
  await pasteImage(alice.page, 'extra.png');
  await expect(chips.getByText('extra.png')).toBeVisible();
  await expectAccessible(alice.page, 'composer with files');
  await screenshots(alice.page, shot, 'composer-chips');
  await chips.getByRole('button', { name: 'Remove extra.png' }).click();
  await expect(chips.getByText('extra.png')).toHaveCount(0);
  await send(alice.page, 'the view from here');
  await expect(alice.page.getByRole('list', { name: 'Files to send' })).toHaveCount(0);

  // Bob sees the sender's preview, which came in the message: it was there before the file
  const bobImage = messages(bob.page).locator('.msg', { hasText: 'the view from here' });
  const preview = bobImage.getByRole('img', { name: 'Preview of sunset.png' });
  await expect(preview).toBeVisible();
  expect(await preview.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
  expect(await preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(
    100,
  );
  await expect(bobImage.getByRole('button', { name: 'Save sunset.png' })).toBeVisible();
  expect(await bob.page.evaluate('window.previewWhilePending')).toBe(true);

  // a PDF, picked with the attach button (over one chunk, so it crosses the doorway in parts)
  const dir = tempDir('attachments');
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n% test\n'), randomBytes(700 * 1024), Buffer.from('\n%%EOF\n')]);
  const pdfPath = join(dir, 'report.pdf');
  writeFileSync(pdfPath, pdf);
  const chooser = alice.page.waitForEvent('filechooser');
  await alice.page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(pdfPath);
  await expect(alice.page.getByRole('list', { name: 'Files to send' }).getByText('report.pdf')).toBeVisible();
  await alice.page.getByRole('button', { name: 'Send' }).click();
  const aliceRow = messages(alice.page).locator('.msg-file', { hasText: 'report.pdf' });
  await expect(aliceRow).toBeVisible();

  const bobPdf = messages(bob.page).locator('.msg-file', { hasText: 'report.pdf' });
  await expect(bobPdf).toContainText('700');
  const save = bobPdf.getByRole('button', { name: 'Save report.pdf' });
  await expect(save).toBeVisible({ timeout: 30_000 });
  await expectAccessible(bob.page, 'conversation with files');
  await screenshots(bob.page, shot, 'received-files');
  const download = bob.page.waitForEvent('download');
  await save.click();
  const d = await download;
  expect(d.suggestedFilename()).toBe('report.pdf');
  expect(readFileSync((await d.path())!).equals(pdf)).toBe(true);

  // the relay goes away: the upload fails and says so, with Retry; back up, Retry sends it
  await relay.stop();
  const notes = Buffer.from('meeting notes\n'.repeat(200));
  await dropFile(alice.page, 'notes.txt', notes, 'text/plain');
  await expect(alice.page.getByRole('list', { name: 'Files to send' }).getByText('notes.txt')).toBeVisible();
  await alice.page.getByRole('button', { name: 'Send' }).click();
  const sending = alice.page.getByRole('list', { name: 'Files being sent' });
  await expect(sending.getByRole('alert')).toContainText('Upload failed', { timeout: 90_000 });
  const retry = sending.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  await expectAccessible(alice.page, 'failed upload');
  await screenshots(alice.page, shot, 'upload-failed');
  await relay.start();
  await retry.click();
  await expect(alice.page.getByRole('list', { name: 'Files being sent' })).toHaveCount(0, { timeout: 60_000 });
  const bobNotes = messages(bob.page).locator('.msg-file', { hasText: 'notes.txt' });
  await expect(bobNotes.getByRole('button', { name: 'Save notes.txt' })).toBeVisible({ timeout: 60_000 });
  const notesDownload = bob.page.waitForEvent('download');
  await bobNotes.getByRole('button', { name: 'Save notes.txt' }).click();
  expect(readFileSync((await (await notesDownload).path())!).equals(notes)).toBe(true);
});
