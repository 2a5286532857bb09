/**
 * Web mode's server over real HTTP on 127.0.0.1: a malformed URL is the client's mistake (400,
 * and the server keeps serving), and the launch link's code buys one session, once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Handlers } from '../../commands/handler-types.js';
import { startWebServer, type RunningWebServer } from '../web-server.js';

const running: RunningWebServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(): Promise<RunningWebServer & { origin: string; code: string }> {
  const staticDir = mkdtempSync(join(tmpdir(), 'web-server-test-'));
  dirs.push(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
  const s = await startWebServer({ staticDir, handlers: {} as Handlers, subscribe: () => () => undefined, port: 0 });
  running.push(s);
  return Object.assign(s, {
    origin: `http://127.0.0.1:${s.port}`,
    code: new URL(s.openUrl).hash.replace('#code=', ''),
  });
}

/** A raw request, so the path reaches the server exactly as written. */
function request(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; text: string; type?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, type: res.headers['content-type'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function exchange(s: { port: number; origin: string }, code: string, origin = s.origin) {
  return request(s.port, 'POST', '/session', { origin, 'content-type': 'application/json' }, JSON.stringify({ code }));
}

function socketStatus(s: { port: number; origin: string }, secret: string): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ipc`, ['messenger.v1', `secret.${secret}`], {
      headers: { origin: s.origin },
    });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
    ws.on('error', () => resolve('error'));
  });
}

describe('web mode server', () => {
  it('answers a malformed URL with 400 and keeps serving', async () => {
    const s = await start();
    for (const path of ['/%E0%A4%A', '/%', '/%zz/index.html', '/assets/%C0']) {
      expect((await request(s.port, 'GET', path)).status, path).toBe(400);
    }
    const home = await request(s.port, 'GET', '/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<title>app</title>');
    expect(home.type).toBe('text/html; charset=utf-8');
    // an upgrade to a malformed path is refused too, without taking the process down
    const upgrade = await request(s.port, 'GET', '/%', {
      connection: 'Upgrade',
      upgrade: 'websocket',
      origin: s.origin,
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    });
    expect(upgrade.status).toBe(404);
    expect((await request(s.port, 'GET', '/index.html')).status).toBe(200);
  });

  it('exchanges the launch code once for a session secret that the link never carried', async () => {
    const s = await start();
    expect(s.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // no session until the code is exchanged, whatever is offered
    expect(await socketStatus(s, s.code)).toBe('401');

    const first = await exchange(s, s.code);
    expect(first.status).toBe(200);
    const { secret } = JSON.parse(first.text) as { secret: string };
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(s.code);
    expect(s.openUrl).not.toContain(secret);
    expect(await socketStatus(s, secret)).toBe('open');
    expect(await socketStatus(s, s.code)).toBe('401');

    // the code is dead after use
    const again = await exchange(s, s.code);
    expect(again.status).toBe(410);
    expect(JSON.parse(again.text)).toMatchObject({ code: 'launch-code-used' });
    expect(again.text).not.toContain(secret);
    // and the session it bought still works
    expect(await socketStatus(s, secret)).toBe('open');
  });

  it('refuses a wrong code, a foreign page, a GET and a body that is not JSON', async () => {
    const s = await start();
    expect((await exchange(s, 'A'.repeat(43))).status).toBe(401);
    expect((await exchange(s, s.code, 'http://evil.example')).status).toBe(403);
    expect((await request(s.port, 'GET', `/session?code=${s.code}`)).status).toBe(405);
    expect(
      (await request(s.port, 'POST', '/session', { origin: s.origin, 'content-type': 'application/json' }, '{not json'))
        .status,
    ).toBe(400);
    expect(
      (
        await request(
          s.port,
          'POST',
          '/session',
          { origin: s.origin, 'content-type': 'text/plain' },
          JSON.stringify({ code: s.code }),
        )
      ).status,
    ).toBe(415);
    // none of these spent the code
    expect((await exchange(s, s.code)).status).toBe(200);
  });
});
