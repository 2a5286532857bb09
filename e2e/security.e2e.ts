import http from 'node:http';
import WebSocket from 'ws';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

function tryConnect(url: string, protocols: string[], origin: string): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, { headers: { origin } });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
    ws.on('error', () => resolve('error'));
  });
}

/** The session secret the page got for its launch code (kept in this tab's sessionStorage). */
function sessionSecret(page: Page): Promise<string> {
  return page.evaluate("sessionStorage.getItem('messenger.secret') ?? ''") as Promise<string>;
}

test('web mode: no Node in the page, the code leaves the address bar, the socket refuses strangers', async ({
  app,
}) => {
  const a = await app('sec');
  const { page } = a;
  await expect(page.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
  expect(await page.evaluate('typeof window.require')).toBe('undefined');
  expect(await page.evaluate('typeof process')).toBe('undefined');
  // The code is gone from the URL (and so from history and Referer); the session secret it
  // bought was never in the printed link.
  expect(page.url()).not.toContain('code');
  const secret = await sessionSecret(page);
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(a.openUrl).not.toContain(secret);
  const origin = new URL(a.openUrl).origin;
  const ws = `${origin.replace('http', 'ws')}/ipc`;
  expect(await tryConnect(ws, ['messenger.v1', `secret.${secret}`], origin)).toBe('open');
  expect(await tryConnect(ws, ['messenger.v1', 'secret.wrong-secret-wrong-secret-wrong'], origin)).toBe('401');
  expect(await tryConnect(ws, ['messenger.v1'], origin)).toBe('401');
  expect(await tryConnect(ws, ['messenger.v1', `secret.${secret}`], 'http://evil.example')).toBe('403');
  // A strict CSP comes with the page, and a foreign Host (DNS rebinding) is refused.
  const res = await page.request.get(origin + '/');
  expect(res.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const rebound = await new Promise<number>((resolve, reject) => {
    const u = new URL(origin);
    http
      .get({ host: u.hostname, port: u.port, path: '/', headers: { host: 'attacker.example' } }, (r) =>
        resolve(r.statusCode ?? 0),
      )
      .on('error', reject);
  });
  expect(rebound).toBe(421);
  // A page opened without the link has no way in.
  const stranger = await a.context.browser()!.newPage();
  await stranger.goto(origin + '/');
  await expect(stranger.getByRole('heading', { name: "Can't reach the app" })).toBeVisible();
  await stranger.close();
});

test('web mode: the launch link works once; a second tab with it is refused, the first tab stays in after a reload', async ({
  app,
}) => {
  const a = await app('once');
  await expect(a.page.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
  const second = await a.context.browser()!.newPage();
  await second.goto(a.openUrl);
  await expect(second.getByRole('heading', { name: "Can't reach the app" })).toBeVisible();
  await expect(second.getByRole('alert')).toContainText('already used');
  await second.close();
  await a.page.reload();
  await expect(a.page.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
  // The process printed that the link was used, so a link taken by someone else is noticed.
  expect(a.output()).toContain('the launch link was used');
});

test('web mode: a malformed URL is answered 400 and the app keeps running', async ({ app }) => {
  const a = await app('badurl');
  await expect(a.page.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
  const { port } = new URL(a.openUrl);
  for (const path of ['/%E0%A4%A', '/%']) {
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } }, (r) =>
          resolve(r.statusCode ?? 0),
        )
        .on('error', reject);
    });
    expect(status, path).toBe(400);
  }
  // Still alive: the open tab keeps working, and a fresh request is served.
  expect(a.running()).toBe(true);
  await a.page.getByRole('button', { name: 'Create a new wallet' }).click();
  expect((await a.page.request.get(new URL(a.openUrl).origin + '/')).status()).toBe(200);
});

test('web mode: commands are validated against the contract before anything runs', async ({ app }) => {
  const a = await app('val');
  const secret = await sessionSecret(a.page);
  const origin = new URL(a.openUrl).origin;
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ipc`, ['messenger.v1', `secret.${secret}`], {
    headers: { origin },
  });
  await new Promise((r) => ws.on('open', r));
  const call = (id: number, name: string, args: unknown) =>
    new Promise<{ ok: boolean; error?: { code: string; message: string } }>((resolve) => {
      ws.on('message', (d) => {
        const f = JSON.parse(String(d));
        if (f.type === 'result' && f.id === id) resolve(f.result);
      });
      ws.send(JSON.stringify({ type: 'call', id, name, args }));
    });
  const unknown = await call(1, 'fs.readFile', { path: '/etc/passwd' });
  expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown-command' } });
  const bad = await call(2, 'messages.send', { conversationId: 'direct:nope', text: 'x', extra: 1 });
  expect(bad).toMatchObject({ ok: false, error: { code: 'bad-arguments' } });
  expect(bad.error!.message).not.toMatch(/at .*:\d+:\d+/);
  const ok = await call(3, 'app.status', {});
  expect(ok.ok).toBe(true);
  ws.close();
});
