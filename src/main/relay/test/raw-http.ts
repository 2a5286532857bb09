import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a fresh socket, so that headers Node's client
 * refuses to send (control characters, user info in Host) reach the relay as a client could
 * send them. The answer is read to the end of the connection (`Connection: close`).
 */
export function rawRequest(
  base: string,
  req: { method: string; path: string; headers: Array<[string, string]>; body?: string },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  const lines = [
    `${req.method} ${req.path} HTTP/1.1`,
    ...req.headers.map(([n, v]) => `${n}: ${v}`),
    'Connection: close',
  ];
  if (body) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    // a relay that closes early (a refused header) may reset the socket while we still write
    socket.on('error', (err: NodeJS.ErrnoException) =>
      chunks.length > 0 && err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      if (split === -1) {
        reject(new Error(`no HTTP answer: ${JSON.stringify(all.toString('latin1').slice(0, 200))}`));
        return;
      }
      const [statusLine, ...headerLines] = all.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let rest: Buffer = all.subarray(split + 4);
      if (headers['transfer-encoding'] === 'chunked') rest = unchunk(rest);
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.toString('utf8') });
    });
    socket.write(body ? Buffer.concat([head, body]) : head);
  });
}

function unchunk(bytes: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
