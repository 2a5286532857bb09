/**
 * The conversation as a person sees it in a small window and while editing: the header keeps
 * the name readable at 800×600, editing the newest message brings its buttons into view with
 * readable colours, and Escape hands focus back to the message.
 */
import AxeBuilder from '@axe-core/playwright';
import { describeViolations, freezeTransitions } from './axe.js';
import { contrastRatio } from './contrast.js';
import { acceptRequest, createAccount, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';

test('at 800×600 the chat header shows the name, cut at its end, with the whole name on hover', async ({
  relay,
  app,
}) => {
  // several apps on a shared machine
  test.slow();
  const alice = await app('alice');
  const max = await app('max');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(max.page, { relayUrl: relay.url, handle: 'maximilian_vandenberg_1987' });
  await messageFromDirectory(max.page, 'alice');
  await send(max.page, 'Hello Alice');
  await acceptRequest(alice.page, 'maximilian_vandenberg_1987');

  const p = alice.page;
  await p.setViewportSize({ width: 800, height: 600 });
  const header = p.locator('.conv-header');
  const name = header.getByRole('heading', { level: 2 }).locator('[title]').first();
  await expect(name).toBeVisible();
  // drawn: far more than "@" or "@m…" (a character is about 8 px at this size)
  const box = (await name.boundingBox())!;
  expect(box.width, 'width of the name in the header').toBeGreaterThanOrEqual(120);
  // the whole handle for screen readers and on hover, whatever is drawn
  await expect(header.getByRole('heading', { level: 2 })).toHaveAccessibleName(/@maximilian_vandenberg_1987/);
  await expect(name).toHaveAttribute('title', /@maximilian_vandenberg_1987/);
  // every header control is still on screen (they wrap under the name rather than push it away)
  for (const control of await header.getByRole('button').all()) await expect(control).toBeInViewport({ ratio: 1 });
  await expect(header.getByRole('combobox')).toBeInViewport({ ratio: 1 });
});

test('editing the newest message: its buttons are in view and readable, Escape returns to the message', async ({
  relay,
  app,
}) => {
  // several apps on a shared machine
  test.slow();
  const alice = await app('alice');
  const bob = await app('bob');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  await messageFromDirectory(bob.page, 'alice');
  await send(bob.page, 'Hi Alice');
  await acceptRequest(alice.page, 'bob');
  const p = alice.page;
  // enough messages that the list scrolls and the newest sits at the bottom edge
  await p.setViewportSize({ width: 800, height: 600 });
  for (let i = 1; i <= 11; i++) await send(p, `Note ${i}: the plan for the weekend, part ${i}.`);
  // the newest is a few lines long: its edit box is taller still
  await send(p, 'Note 12: Saturday\nmeet at the station at 9\nbring water\nand a map');
  const last = messages(p).locator('.msg', { hasText: 'Note 12:' });
  await expect(last).toBeVisible();

  await last.hover();
  await last.getByRole('button', { name: 'Message actions' }).click();
  await p.getByRole('menuitem', { name: 'Edit' }).click();
  const box = p.getByRole('textbox', { name: 'Edit message' });
  await expect(box).toBeFocused();
  const save = last.getByRole('button', { name: 'Save' });
  await expect(save).toBeInViewport({ ratio: 1 });
  await expect(last.getByRole('button', { name: 'Cancel' })).toBeInViewport({ ratio: 1 });

  // light, as the app starts here, then dark: Save and Cancel are readable on the bubble
  const thaw = await freezeTransitions(p);
  for (const scheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page: p }).include('.msg-edit').withRules(['color-contrast']).analyze();
    expect.soft(result.violations, `${scheme}:\n${describeViolations(result.violations)}`).toEqual([]);
    for (const name of ['Save', 'Cancel']) {
      const c = await contrastRatio(last.getByRole('button', { name }));
      expect.soft(c.ratio, `${name} in ${scheme}: ${c.color} on ${c.background}`).toBeGreaterThanOrEqual(4.5);
    }
  }
  await p.emulateMedia({ colorScheme: 'light' });
  await thaw();

  // Escape leaves the edit and focus goes back to the message's menu button, not the page
  await box.press('Escape');
  await expect(box).toBeHidden();
  await expect(last.getByRole('button', { name: 'Message actions' })).toBeFocused();
});
