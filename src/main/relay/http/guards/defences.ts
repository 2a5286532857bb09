import type { FastifyInstance } from 'fastify';
import { HttpError, badHost, hostNotAllowed } from '../errors.js';
import { isOwnOrigin, parseHostHeader, requestAuthority } from './host-header.js';

const MAX_JSON_DEPTH = 16;

/**
 * Nesting depth of a JSON text, counted without parsing it (strings are skipped). A string is
 * crossed with indexOf to its closing quote (one after an even run of backslashes), not read
 * character by character: ciphertext is nearly all of a send's body, and the character loop
 * over it was the largest single cost of a 100-envelope batch after the database.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (;;) {
        const close = text.indexOf('"', i + 1);
        if (close === -1) return max;
        let backslashes = 0;
        while (text.charCodeAt(close - 1 - backslashes) === 92 /* \ */) backslashes++;
        i = close;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * False when the text has at most `depth` opening brackets at all (found with indexOf, which
 * is native and far faster than the character loop of jsonDepth): then it cannot nest deeper.
 * Brackets inside strings count too, so true only means "count properly".
 */
export function mayNestDeeperThan(text: string, depth: number): boolean {
  let seen = 0;
  for (const open of ['{', '[']) {
    for (let at = text.indexOf(open); at !== -1; at = text.indexOf(open, at + 1)) if (++seen > depth) return true;
  }
  return false;
}

/**
 * DNS-rebinding guard: a page on evil.example that resolves to 127.0.0.1 still sends
 * `Host: evil.example`, so only the names `hostAllowed` takes are served (421 otherwise). A
 * Host that is not a plain host[:port] (see host-header.ts), or none at all, is 400 `bad-host`
 * on every route. Browsers' cross-site requests carry an Origin, refused unless it is this
 * relay's own, port included (or the operator's `--base-url`); no CORS headers are ever sent,
 * so other sites' scripts cannot read answers.
 */
export function registerHostGuard(
  app: FastifyInstance,
  hostAllowed: (hostname: string) => boolean,
  opts: { baseOrigin: string | null; trustProxy: boolean },
): void {
  // A callback hook: it never waits, and every request passes through it.
  app.addHook('onRequest', (req, _reply, done) => {
    const raw = req.headers.host;
    const host = raw === undefined ? null : parseHostHeader(raw);
    if (!host) return done(badHost());
    if (!hostAllowed(host.hostname)) return done(hostNotAllowed());
    const origin = req.headers.origin;
    if (origin === undefined) return done();
    if (
      origin.toLowerCase() !== opts.baseOrigin &&
      !isOwnOrigin(origin, requestAuthority(req, opts.trustProxy), hostAllowed)
    )
      return done(new HttpError(403, 'cross-origin requests are not allowed', 'origin-not-allowed'));
    done();
  });
}

/**
 * Every answer says it is what its Content-Type says (a browser must never read an error body
 * that holds request text as a page) and that it must not be kept by a cache: answers are
 * per credential and per moment. Routes that chose their own caching keep it.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });
}

/** JSON bodies: fastify's prototype-poisoning-safe parser, behind a nesting-depth limit. */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  // JSON only: a text/plain body is 415, not a string that later fails as an envelope.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (mayNestDeeperThan(text, MAX_JSON_DEPTH) && jsonDepth(text) > MAX_JSON_DEPTH) {
      done(new HttpError(400, `JSON is nested deeper than ${MAX_JSON_DEPTH} levels`, 'too-deep'), undefined);
      return;
    }
    parse(req, text, (err, value) => {
      // The safe parser fails prototype keys and broken JSON alike; tell them apart, so that
      // valid JSON is not called invalid.
      if (err && isJson(text))
        done(
          new HttpError(
            400,
            'JSON keys "__proto__", and "constructor" holding "prototype", are refused',
            'forbidden-key',
          ),
          undefined,
        );
      else done(err, value);
    });
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Requests Node's parser refuses before Fastify sees them (a target without a leading `/`,
 * broken headers, oversized headers) are answered in the same `{ error, code }` shape as
 * everything else, then the connection is closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'headers-too-large', 'the request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'timeout', 'the request took too long to arrive']
        : [400, 'Bad Request', 'bad-request', 'the request is not valid HTTP'];
  const body = JSON.stringify({ error: message, code });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
