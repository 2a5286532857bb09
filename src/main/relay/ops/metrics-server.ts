/**
 * The metrics listener (`--metrics-port`): a plain HTTP server of its own, apart from the API,
 * so that it can be bound to another interface than the relay (loopback by default) and never
 * shares the API's rate limit, Host guard or log. It answers `GET /metrics` and nothing else.
 */
import { createServer, type Server } from 'node:http';
import type { RelayMetrics } from './metrics.js';

export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464/metrics */
  url: string;
  close(): Promise<void>;
}

export function startMetricsListener(metrics: RelayMetrics, host: string, port: number): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const refuse = (status: number, error: string, code: string) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        ...(status === 405 ? { allow: 'GET, HEAD' } : {}),
      });
      res.end(JSON.stringify({ error, code }));
    };
    if (path !== '/metrics') return refuse(404, 'only /metrics is served here', 'no-route');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return refuse(405, 'that method is not allowed here', 'method-not-allowed');
    metrics.scrape().then(
      ({ contentType, text }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => refuse(500, 'the metrics could not be read', 'internal'),
    );
  });
  // scrapers keep connections open between scrapes; these must not hold the relay's close
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown === '0.0.0.0' || shown === '[::]' ? '127.0.0.1' : shown}:${bound}/metrics`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
