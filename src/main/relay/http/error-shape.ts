/**
 * One place gives every 4xx and 5xx its body (docs/protocol.md, Errors): `{ error, code }` in
 * the relay's own words, whoever raised it, the routes, Fastify, its router or a plugin. No
 * `code` is ever a framework's (`FST_…`), and no message repeats the request's URL: a page that
 * puts script in a URL must not get it echoed, and a log reader must not get it as ours.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import { StoreUnavailable } from '../store/store.js';

export interface ErrorBody {
  error: string;
  code: string;
}

/** What a refusal says when nothing more particular is known about it than its status. */
const BY_STATUS: Record<number, ErrorBody> = {
  400: { error: 'the request is malformed', code: 'bad-request' },
  401: { error: 'missing or invalid credential', code: 'unauthorized' },
  403: { error: 'not allowed', code: 'forbidden' },
  404: { error: 'there is nothing here', code: 'not-found' },
  405: { error: 'that method is not allowed here', code: 'method-not-allowed' },
  406: { error: 'no answer in an acceptable form', code: 'not-acceptable' },
  408: { error: 'the request took too long to arrive', code: 'timeout' },
  411: { error: 'send a Content-Length', code: 'length-required' },
  412: { error: 'a precondition of the request does not hold', code: 'precondition-failed' },
  413: { error: 'the request body is too large', code: 'too-large' },
  414: { error: 'the URL is too long', code: 'url-too-long' },
  415: { error: 'this route does not take that Content-Type', code: 'unsupported-media-type' },
  416: { error: 'the range is past the end', code: 'range-not-satisfiable' },
  429: { error: 'rate limit exceeded', code: 'rate-limited' },
  431: { error: 'the request headers are too large', code: 'headers-too-large' },
  503: { error: 'the relay cannot answer right now; try again shortly', code: 'unavailable' },
};

export function plainError(status: number): ErrorBody {
  return BY_STATUS[status] ?? (status >= 500 ? { error: 'internal error', code: 'internal' } : BY_STATUS[400]);
}

/** How many seconds a peer must wait because it spent its budget for bad requests, or null. */
export type BadRequestBudget = (ip: string) => Promise<number | null>;

const MIB = 1024 * 1024;
const sizeWords = (bytes: number | undefined) =>
  bytes === undefined ? 'the limit' : bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;

/** Framework errors we can say more about than their status. */
function knownFrameworkError(err: FastifyError, req: FastifyRequest): { status: number; body: ErrorBody } | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        body: { error: `the request body is over ${sizeWords(req.routeOptions.bodyLimit)}`, code: 'too-large' },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const consumes = (req.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes;
      return {
        status: 415,
        body: {
          error: `send the body with Content-Type: ${consumes?.[0] ?? 'application/json'}`,
          code: 'unsupported-media-type',
        },
      };
    }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { error: 'the JSON body is empty', code: 'invalid-json' } };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: { error: 'the body is not valid JSON', code: 'invalid-json' } };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, body: { error: 'Content-Length does not match the body', code: 'bad-request' } };
    case 'FST_ERR_BAD_URL':
      return { status: 400, body: { error: 'the URL is not valid (a broken percent-encoding?)', code: 'bad-url' } };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, body: { error: 'a part of the URL path is too long', code: 'url-too-long' } };
    default:
      return null;
  }
}

/**
 * Validation and parse errors are 400, refusals keep their status and words, known framework
 * errors get ours, any other 4xx gets its status's plain words, and anything unexpected is a
 * generic 500 whose details go only to the log.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ error: err.message, code: err.code });
    if (err instanceof StoreUnavailable)
      return reply.code(503).header('Retry-After', '1').send({ error: err.message, code: 'database-unavailable' });
    if (err.validation) {
      return reply
        .code(400)
        .send({ error: `invalid ${err.validationContext ?? 'request'}: ${err.message}`, code: 'invalid-request' });
    }
    const known = knownFrameworkError(err, req);
    if (known) return reply.code(known.status).send(known.body);
    if (err instanceof SyntaxError)
      return reply.code(400).send({ error: 'the body is not valid JSON', code: 'invalid-json' });
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(plainError(status));
    // the details, stack included, go to the log with the request's line (ops/request-log.ts)
    return reply.code(500).send(plainError(500));
  });
}

/**
 * The router's own refusals (a URL it cannot decode, a path parameter over maxParamLength)
 * never reach hooks or the error handler; Fastify hands them here. They count against the
 * peer's budget for bad requests like unknown routes do.
 */
export function frameworkErrors(budget: () => BadRequestBudget | null) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    const answer =
      err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? knownFrameworkError(err, req) : null;
    const { status, body } = answer ?? { status: 400, body: plainError(400) };
    const send = (s: number, b: ErrorBody) => {
      // these replies have no route, hence no serializer and no hooks of their own: send the
      // text, with the headers every answer carries (defences.ts, registerResponseHeaders)
      reply
        .code(s)
        .type('application/json; charset=utf-8')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .send(JSON.stringify(b));
    };
    const spend = budget();
    if (!spend) return send(status, body);
    spend(req.ip).then(
      (wait) =>
        wait === null ? send(status, body) : (reply.header('Retry-After', String(wait)), send(429, rateLimited(wait))),
      () => send(status, body),
    );
  };
}

const rateLimited = (wait: number): ErrorBody => ({
  error: `rate limit exceeded for bad requests from your address; retry in ${wait} s`,
  code: 'rate-limited',
});

/**
 * Unknown routes: 405 with Allow when the path is a route's but the method is not, 404
 * otherwise. Both count against the peer's budget for bad requests (429 once spent), so
 * probing for routes is slowed like guessing credentials.
 */
export function registerNotFound(
  app: FastifyInstance,
  routePatterns: () => ReadonlyMap<string, ReadonlySet<string>>,
  budget: () => BadRequestBudget | null,
): void {
  app.setNotFoundHandler(async (req, reply) => {
    const wait = await (budget()?.(req.ip) ?? null);
    if (wait !== null) return reply.code(429).header('Retry-After', String(wait)).send(rateLimited(wait));
    const path = req.url.split('?')[0];
    const allow = new Set<string>();
    for (const [pattern, methods] of routePatterns()) if (matches(pattern, path)) for (const m of methods) allow.add(m);
    if (allow.size > 0 && !allow.has(req.method)) {
      const methods = [...allow].sort();
      return reply
        .code(405)
        .header('Allow', methods.join(', '))
        .send({ error: `that method is not allowed here; use ${methods.join(' or ')}`, code: 'method-not-allowed' });
    }
    return reply.code(404).send({ error: 'this relay has no route for that method and path', code: 'no-route' });
  });
}

function matches(pattern: string, path: string): boolean {
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  const a = pattern.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((seg, i) => (seg.startsWith(':') ? b[i].length > 0 : seg === b[i]));
}

/**
 * While the relay shuts down, new requests get 503 in our shape (Fastify's own answer, with
 * `return503OnClosing`, has no code), and their connection is closed.
 */
export function registerClosingAnswer(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    reply.header('Connection', 'close').header('Retry-After', '1');
    done(new HttpError(503, 'the relay is shutting down; try again shortly', 'shutting-down'));
  });
}
