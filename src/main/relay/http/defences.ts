import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import { StoreUnavailable } from '../store/store.js';
import { originHostname, parseHostHeader } from './host-header.js';

const MAX_JSON_DEPTH = 16;

/** Nesting depth of a JSON text, counted without parsing it (strings are skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * False when the text has at most `depth` opening brackets at all (found with indexOf, which
 * is native and ~10× faster than the character loop of jsonDepth): then it cannot nest deeper.
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
 * Host that is not a plain host[:port] (see host-header.ts) is 400 `bad-host` on every route.
 * Browsers' cross-site requests carry an Origin, refused unless it is one of ours; no CORS
 * headers are ever sent, so other sites' scripts cannot read answers.
 */
export function registerHostGuard(app: FastifyInstance, hostAllowed: (hostname: string) => boolean): void {
  // A callback hook: it never waits, and every request passes through it.
  app.addHook('onRequest', (req, reply, done) => {
    const raw = req.headers.host;
    const host = raw === undefined ? null : parseHostHeader(raw);
    if (raw !== undefined && !host) {
      reply.code(400).send(badHost());
      return;
    }
    if (!host || !hostAllowed(host.hostname)) {
      reply.code(421).send({ error: 'this relay does not answer for that host name', code: 'host-not-allowed' });
      return;
    }
    const origin = req.headers.origin;
    if (origin === undefined) {
      done();
      return;
    }
    const originHost = originHostname(origin);
    if (!originHost || !hostAllowed(originHost)) {
      reply.code(403).send({ error: 'cross-origin requests are not allowed', code: 'origin-not-allowed' });
      return;
    }
    done();
  });
}

export const badHost = () => ({ error: 'the Host header must be a plain host name or address with an optional port (1-65535)', code: 'bad-host' });

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
    parse(req, text, done);
  });
}

const KNOWN_CODES: Record<string, { status: number; code: string; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'too-large', message: 'request body is over 1 MiB' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported-media-type', message: 'send JSON with Content-Type: application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'bad-request', message: 'the JSON body is empty' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad-request', message: 'Content-Length does not match the body' },
};

/**
 * One place turns every failure into `{ error, code }`: validation and parse errors are 400,
 * known refusals keep their status, and anything unexpected is a generic 500 whose details go
 * only to the log.
 */
export function registerErrorHandling(app: FastifyInstance, routePatterns: () => Map<string, Set<string>>): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ error: err.message, code: err.code });
    if (err instanceof StoreUnavailable) return reply.code(503).header('Retry-After', '1').send({ error: err.message, code: 'database-unavailable' });
    if (err.validation) {
      return reply.code(400).send({ error: `invalid ${err.validationContext ?? 'request'}: ${err.message}`, code: 'invalid-request' });
    }
    const known = err.code ? KNOWN_CODES[err.code] : undefined;
    if (known) return reply.code(known.status).send({ error: known.message ?? err.message, code: known.code });
    if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err as { code?: string }).code === 'FST_ERR_CTP_INVALID_CONTENT_TYPE') {
      return reply.code(400).send({ error: 'the body is not valid JSON', code: 'invalid-json' });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ error: err.message, code: 'rate-limited' });
    if (status >= 400 && status < 500) return reply.code(status).send({ error: err.message, code: err.code ?? 'bad-request' });
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: 'internal error', code: 'internal' });
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allow: string[] = [];
    for (const [pattern, methods] of routePatterns()) if (matches(pattern, path)) allow.push(...methods);
    if (allow.length > 0) {
      return reply.code(405).header('Allow', [...new Set(allow)].sort().join(', ')).send({ error: `${req.method} is not allowed here; use ${allow.join(' or ')}`, code: 'method-not-allowed' });
    }
    return reply.code(404).send({ error: `no route ${req.method} ${path}`, code: 'no-route' });
  });
}

function matches(pattern: string, path: string): boolean {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return pattern.endsWith('*') && path.startsWith(pattern.slice(0, -1));
  return a.every((seg, i) => seg.startsWith(':') ? b[i].length > 0 : seg === b[i]);
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
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
