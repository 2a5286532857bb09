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
        if (requests === 1)
          socket.write(
            'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n{"ok":true}',
          );
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
  let agent: ReturnType<typeof createAgent> | null = null;
  afterEach(() => {
    agent?.destroy();
    server?.close();
    agent = null;
    server = null;
  });
  /** The resetting server, a client agent for it, and one GET answered: a kept-alive connection. */
  async function keptAlive() {
    const s = await resettingServer();
    server = s.server;
    const a = createAgent(s.url, null);
    agent = a;
    expect((await httpRequest(a, { method: 'GET', url: s.url, headers: {} })).status).toBe(200);
    return { ...s, agent: a };
  }

  it('sends a GET again on a new connection, and the caller sees only the answer', async () => {
    const s = await keptAlive();
    const again = await httpRequest(s.agent, { method: 'GET', url: s.url, headers: {} });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body.toString())).toEqual({ ok: true });
    expect(s.connections()).toBe(2);
  });

  it('does not repeat a POST: it fails as a network error, and was sent once', async () => {
    const s = await keptAlive();
    const failed = await httpRequest(s.agent, {
      method: 'POST',
      url: s.url,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{}'),
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(NetworkError);
    expect((failed as NetworkError).code).toBe('ECONNRESET');
    expect(s.connections()).toBe(1);
  });

  it('closes an idle kept-alive connection itself before the relay would (5 s)', async () => {
    const s = await keptAlive();
    const idle = Object.values(s.agent.freeSockets).flat()[0];
    expect(idle).toBeDefined();
    expect(idle!.timeout).toBeGreaterThan(0);
    expect(idle!.timeout).toBeLessThan(5_000);
  });
});
