/**
 * Web mode's doorway: serves the built renderer on 127.0.0.1 and carries the same IPC
 * contract over one WebSocket. The Origin must be this server's own, and the Host header must
 * name loopback so a DNS-rebinding page cannot talk to it.
 *
 * The launch link carries a one-time code, not the secret itself: the link is handed to
 * `xdg-open`/`open`, whose arguments any local user can read in /proc. The first page load
 * exchanges the code (`POST /session`) for the session secret, and the code is dead from then
 * on. The socket takes only the session secret (offered as a subprotocol, compared in
 * constant time), which never appears in any process's arguments or in a printed line.
 *
 * A link taken by someone else would hold the session until a restart, so `newLink()` (and
 * `POST /control/new-link`, for `npm run web -- --new-link` in another terminal) makes a new
 * code and a new secret and closes every socket of the old session: its secret is refused from
 * then on. The control route takes only the token of web-control.ts's file (0600, in the data
 * folder) and never a browser's request (those carry an Origin).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import { join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventName, Events } from '../../shared/ipc.js';
import { mimeTypeOf } from '../../shared/mime-types.js';
import { dispatch } from '../commands/dispatch.js';
import type { Handlers } from '../commands/handler-types.js';

export interface WebServerOptions {
  staticDir: string;
  handlers: Handlers;
  /** subscribe to main's events; returns an unsubscribe */
  subscribe: (fn: <E extends EventName>(event: E, payload: Events[E]) => void) => () => void;
  port?: number;
  /** told when the launch code is exchanged, so a link used by someone else is noticed */
  onLaunchCodeUsed?: () => void;
  /** the bearer token `POST /control/new-link` requires; without one the route does not exist */
  controlToken?: string;
  /** told when a new link ended the session */
  onNewLink?: () => void;
}

export interface RunningWebServer {
  url: string;
  /** the one line to open: url with the one-time launch code in the fragment */
  openUrl: string;
  port: number;
  /** Ends the current session (its sockets closed, its secret refused) and returns a new link. */
  newLink(): string;
  close(): Promise<void>;
}

/** the page's own files by the one MIME table; its text (html, js, css) is UTF-8 */
function contentTypeOf(file: string): string {
  const type = mimeTypeOf(file);
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

const MAX_FRAME = 1024 * 1024;
/** a launch-code exchange body is `{"code":"<43 chars>"}`; anything much larger is not one */
const MAX_SESSION_BODY = 1024;

/** Equal-length constant-time comparison of two strings (false for different lengths). */
function sameSecret(given: string, expected: Buffer): boolean {
  const buf = Buffer.from(given);
  return buf.length === expected.length && timingSafeEqual(buf, expected);
}

export async function startWebServer(opts: WebServerOptions): Promise<RunningWebServer> {
  let launchCode = randomBytes(32).toString('base64url');
  let launchCodeBuf = Buffer.from(launchCode);
  let launchCodeUsed = false;
  let secretBuf = Buffer.from(randomBytes(32).toString('base64url'));
  const controlTokenBuf = opts.controlToken ? Buffer.from(opts.controlToken) : null;
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const csp = () =>
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
      "object-src 'none'",
    ].join('; ');

  const server = http.createServer((req, res) => {
    if (!allowedHosts().has(req.headers.host ?? '')) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request');
      return;
    }
    const path = requestPath(req);
    if (path === null) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request: malformed URL');
      return;
    }
    if (path === '/session') return exchangeLaunchCode(req, res);
    if (path === '/control/new-link' && controlTokenBuf) return controlNewLink(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = resolveStatic(opts.staticDir, path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const isHtml = file.endsWith('.html');
    res.writeHead(200, {
      'content-type': contentTypeOf(file),
      'content-length': statSync(file).size,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()',
      'cache-control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable',
      ...(isHtml ? { 'content-security-policy': csp(), 'x-frame-options': 'DENY' } : {}),
    });
    if (req.method === 'HEAD') res.end();
    else
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
  });

  const answerJson = (res: http.ServerResponse, status: number, body: unknown) => {
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .end(JSON.stringify(body));
  };

  /** `POST /session {code}` from our own page: the launch code, once, for the session secret. */
  function exchangeLaunchCode(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    if (!allowedOrigins().has(String(req.headers.origin ?? '')))
      return answerJson(res, 403, { error: 'Only the app’s own page may start a session.', code: 'forbidden-origin' });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return answerJson(res, 415, { error: 'Send the launch code as JSON.', code: 'unsupported-media-type' });
    let body = '';
    let tooLarge = false;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_SESSION_BODY) {
        tooLarge = true;
        req.destroy();
      }
    });
    req.on('end', () => {
      if (tooLarge) return;
      let code: unknown;
      try {
        code = (JSON.parse(body) as { code?: unknown })?.code;
      } catch {
        return answerJson(res, 400, { error: 'The body is not JSON.', code: 'bad-request' });
      }
      if (typeof code !== 'string' || !sameSecret(code, launchCodeBuf))
        return answerJson(res, 401, {
          error: 'This is not the link the app printed. Open the app from the link it printed when it started.',
          code: 'bad-launch-code',
        });
      if (launchCodeUsed)
        return answerJson(res, 410, {
          error:
            'This link was already used, and works only once. Restart the app (or open the tab that used it) to get in again.',
          code: 'launch-code-used',
        });
      launchCodeUsed = true;
      opts.onLaunchCodeUsed?.();
      answerJson(res, 200, { secret: secretBuf.toString() });
    });
  }

  /** `POST /control/new-link` with the control file's token, from a local program: a new link. */
  function controlNewLink(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    if (req.headers.origin !== undefined)
      return answerJson(res, 403, { error: 'Not for pages.', code: 'forbidden-origin' });
    const given = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (!sameSecret(given, controlTokenBuf!))
      return answerJson(res, 401, { error: 'Wrong control token.', code: 'bad-control-token' });
    answerJson(res, 200, { openUrl: newLink() });
  }

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME,
    handleProtocols: (protocols) => (protocols.has('messenger.v1') ? 'messenger.v1' : false),
  });

  server.on('upgrade', (req, socket, head) => {
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (requestPath(req) !== '/ipc') return refuse(404, 'Not Found');
    if (!allowedHosts().has(req.headers.host ?? '')) return refuse(421, 'Misdirected Request');
    if (!allowedOrigins().has(String(req.headers.origin ?? ''))) return refuse(403, 'Forbidden');
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    const given = offered.find((p) => p.startsWith('secret.'))?.slice('secret.'.length) ?? '';
    // Until the launch code is exchanged there is no session, whatever is offered.
    if (!launchCodeUsed || !sameSecret(given, secretBuf)) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const sockets = new Set<WebSocket>();
  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data, isBinary) => {
      // a socket of an ended session says nothing more, even before its close completes
      if (!sockets.has(ws)) return;
      if (isBinary) return ws.close(1003, 'text frames only');
      let frame: { type?: unknown; id?: unknown; name?: unknown; args?: unknown };
      try {
        frame = JSON.parse(String(data));
      } catch {
        return ws.close(1007, 'not JSON');
      }
      if (frame?.type !== 'call' || typeof frame.id !== 'number') return ws.close(1008, 'unexpected frame');
      const id = frame.id;
      void dispatch(opts.handlers, frame.name, frame.args).then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'result', id, result }));
      });
    });
  });

  const unsubscribe = opts.subscribe((event, payload) => {
    const text = JSON.stringify({ type: 'event', event, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: opts.port ?? 0 }, () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}/`;

  function newLink(): string {
    launchCode = randomBytes(32).toString('base64url');
    launchCodeBuf = Buffer.from(launchCode);
    secretBuf = Buffer.from(randomBytes(32).toString('base64url'));
    launchCodeUsed = false;
    for (const ws of sockets) {
      sockets.delete(ws);
      ws.close(4001, 'session ended: a new link was made');
      // a peer that does not answer the close is cut off
      setTimeout(() => ws.terminate(), 1000).unref();
    }
    opts.onNewLink?.();
    return `${url}#code=${launchCode}`;
  }

  return {
    url,
    openUrl: `${url}#code=${launchCode}`,
    port,
    newLink,
    close: async () => {
      unsubscribe();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The request's path, percent-decoded; null when the target is not a URL or holds a malformed
 * escape (`/%`, `/%E0%A4%A`). That is the client's mistake, answered 400: never a throw, which
 * would take the whole process (and every open tab) down.
 */
function requestPath(req: http.IncomingMessage): string | null {
  try {
    return decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    return null;
  }
}

function resolveStatic(root: string, urlPath: string): string | null {
  const rel = urlPath === '/' ? 'index.html' : urlPath.replace(/^\/+/, '');
  const full = normalize(join(root, rel));
  if (!full.startsWith(normalize(root) + sep)) return null;
  if (!existsSync(full) || !statSync(full).isFile()) return null;
  return full;
}
