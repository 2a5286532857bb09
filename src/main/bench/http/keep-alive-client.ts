/** A minimal keep-alive JSON client on node:http, for latency loops where fetch's overhead would blur the figure. */
import { Agent, request } from 'node:http';

export class KeepAliveClient {
  private readonly agent: Agent;
  private readonly ownAgent: boolean;
  private readonly url: URL;

  /** `agent`: one shared by many clients (many held pulls need many sockets); it stays the caller's to destroy. */
  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    agent?: Agent,
  ) {
    this.url = new URL(baseUrl);
    this.agent = agent ?? new Agent({ keepAlive: true, maxSockets: 1 });
    this.ownAgent = agent === undefined;
  }

  call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          headers: {
            authorization: `Bearer ${this.apiKey}`,
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) >= 300)
              reject(new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`));
            else resolve(JSON.parse(text) as T);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    if (this.ownAgent) this.agent.destroy();
  }
}
