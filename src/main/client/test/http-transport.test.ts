import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, httpRequest, NetworkError } from '../http-transport.js';

/**
 * A server that answers the first request of each connection and keeps it alive, then resets
 * the connection when a second request arrives on it: what a relay closing an idle kept-alive
 * connection looks like to a client that reused it at that moment.
 */
function resettingServer(): Promise<{ server: Server; url: URL; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket: Socket) => {
    connections += 1;
    let requests = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        requests += 1;
        if (requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n{"ok":true}');
        else socket.resetAndDestroy();
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: new URL(`http://127.0.0.1:${port}/`), connections: () => connections });
    }),
  );
}

describe('the client transport on a kept-alive connection the relay has just closed', () => {
  let server: Server | null = null;
  afterEach(() => {
    server?.close();
    server = null;
  });

  it('sends a GET again on a new connection, and the caller sees only the answer', async () => {
    const s = await resettingServer();
    server = s.server;
    const agent = createAgent(s.url, null);
    expect((await httpRequest(agent, { method: 'GET', url: s.url, headers: {} })).status).toBe(200);
    const again = await httpRequest(agent, { method: 'GET', url: s.url, headers: {} });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body.toString())).toEqual({ ok: true });
    expect(s.connections()).toBe(2);
    agent.destroy();
  });

  it('does not repeat a POST: it fails as a network error, and was sent once', async () => {
    const s = await resettingServer();
    server = s.server;
    const agent = createAgent(s.url, null);
    expect((await httpRequest(agent, { method: 'GET', url: s.url, headers: {} })).status).toBe(200);
    const failed = await httpRequest(agent, { method: 'POST', url: s.url, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(NetworkError);
    expect((failed as NetworkError).code).toBe('ECONNRESET');
    expect(s.connections()).toBe(1);
    agent.destroy();
  });

  it('closes an idle kept-alive connection itself before the relay would (5 s)', async () => {
    const s = await resettingServer();
    server = s.server;
    const agent = createAgent(s.url, null);
    await httpRequest(agent, { method: 'GET', url: s.url, headers: {} });
    const idle = Object.values(agent.freeSockets).flat()[0];
    expect(idle).toBeDefined();
    expect(idle!.timeout).toBeGreaterThan(0);
    expect(idle!.timeout).toBeLessThan(5_000);
    agent.destroy();
  });
});
