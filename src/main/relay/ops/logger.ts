/**
 * The relay's log: pino, the logger Fastify is built on, one JSON line per event. What a line
 * may hold is decided here and nowhere else: requests are logged through the `req` and `res`
 * serializers, which keep the method, the route's pattern, the status and the request id and
 * drop everything else (URL, query, headers, body), errors through one that keeps their name,
 * message, code and stack but no other field (a driver's error may carry a query's
 * parameters), and `redact` censors any field named like a secret that code elsewhere might
 * hand the logger by mistake (docs/operations.md, Logs).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../cli-args.js';

/** Field names that are never logged with their value, at the top level or one level down. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'headers',
  'body',
  'query',
  'apiKey',
  'token',
  'secret',
  'password',
  'privateKey',
  'signature',
  'nonce',
  'ciphertext',
  'ephemeralPublicKey',
  'envelopes',
];

export const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]);

interface RequestLike {
  id?: unknown;
  method?: unknown;
  routeOptions?: { url?: unknown };
}

/** A request as the log shows it: never its URL, which may carry a query, nor any header or body. */
export function serializeRequest(req: RequestLike): Record<string, unknown> {
  const route = req?.routeOptions?.url;
  return {
    id: typeof req?.id === 'string' || typeof req?.id === 'number' ? req.id : undefined,
    method: typeof req?.method === 'string' ? req.method : undefined,
    // the pattern the router matched (`/api/v1/keys/:address`), not the path it was asked for
    route: typeof route === 'string' ? route : null,
  };
}

export function serializeReply(res: { statusCode?: unknown }): Record<string, unknown> {
  return { status: typeof res?.statusCode === 'number' ? res.statusCode : undefined };
}

export function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err, message: typeof err === 'string' ? err : '(not an Error)' };
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    message: err.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    stack: err.stack,
    ...(err.cause !== undefined && depth < 3 ? { cause: serializeError(err.cause, depth + 1) } : {}),
  };
}

export function relayLogger(options: { level: LogLevel; destination: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: serializeRequest, res: serializeReply, err: serializeError },
    },
    options.destination,
  );
}
