import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Credential } from '../auth.js';
import { HttpError } from '../errors.js';
import type { BadRequestBudget } from '../error-shape.js';
import { SlidingWindowStore } from './sliding-window-store.js';

const WINDOW_MS = 60_000;

/**
 * The key a request counts against (docs/protocol.md §4 Limits): the credential as the relay
 * resolves it, so header-case and whitespace variants of one key share one budget. An API key
 * counts against its wallet, so that minting more keys buys no more requests; a group token
 * against its group, whose tokens share one budget apart from any wallet's. Requests whose
 * credential is missing or invalid share one budget per peer address, so guessing is slowed
 * (401 until it is spent, 429 after).
 */
export function rateLimitKey(resolve: (req: FastifyRequest) => Promise<Credential | null>) {
  return async (req: FastifyRequest): Promise<string> => {
    const credential = await resolve(req);
    if (!credential) return 'peer:' + req.ip;
    return credential.kind === 'api-key'
      ? 'wallet:' + credential.row.address
      : 'group-tokens:' + credential.row.groupId;
  };
}

/**
 * Whether a request is free of the limit, decided by the route the router matched (its
 * pattern, after percent-decoding), never by the raw URL: `/%61pi/v1/me` is `/api/v1/me`.
 */
export function freeOfLimit(req: FastifyRequest): boolean {
  const route = req.routeOptions.url;
  return route === undefined || !route.startsWith('/api/');
}

/**
 * The per-address budget for bad requests, spent by requests no route takes (unknown routes,
 * wrong methods, URLs the router refuses): the same counter as requests without a valid
 * credential, so probing for routes is slowed like guessing keys.
 */
export function badRequestBudget(app: FastifyInstance): BadRequestBudget {
  const limiter = app.createRateLimit({ keyGenerator: (req) => 'peer:' + req.ip, allowList: () => false });
  return async (ip) => {
    // The limiter reads only these two fields; the router's refusals come with no request to pass
    // it, and its type asks for a whole one.
    const result = await limiter({ ip, routeOptions: { config: {} } } as FastifyRequest);
    return !result.isAllowed && result.isExceeded ? result.ttlInSeconds : null;
  };
}

/** Both sign-in routes share one budget per TCP peer (docs/protocol.md §3 Sign-in). */
export const signInRateLimit = (max: number | (() => number)) => ({
  max,
  timeWindow: WINDOW_MS,
  keyGenerator: (req: FastifyRequest) => 'signin:' + req.ip,
});

export async function registerRateLimit(
  app: FastifyInstance,
  /** read per request when a function, so that a reload changes it */
  max: number | (() => number),
  resolve: (req: FastifyRequest) => Promise<Credential | null>,
  store: new () => FastifyRateLimitStore = SlidingWindowStore,
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max,
    timeWindow: WINDOW_MS,
    hook: 'onRequest',
    store,
    // A shared store that cannot be reached does not turn every request into a 500: the request
    // goes on, and the store behind it answers 503 if the database is really gone.
    skipOnError: true,
    keyGenerator: rateLimitKey(resolve),
    enableDraftSpec: true,
    // `/`, its assets and the OpenAPI document are free (docs/protocol.md §1 Conventions).
    allowList: freeOfLimit,
    errorResponseBuilder: (_req, ctx) =>
      new HttpError(429, `rate limit exceeded: ${ctx.max} requests a minute; retry in ${ctx.after}`, 'rate-limited'),
  });
  // The IETF draft's combined fields, beside the plugin's RateLimit-Limit/-Remaining/-Reset.
  app.addHook('onSend', async (_req, reply, payload) => {
    const limit = reply.getHeader('ratelimit-limit');
    if (limit !== undefined) {
      const remaining = reply.getHeader('ratelimit-remaining') ?? 0;
      const reset = reply.getHeader('ratelimit-reset') ?? 0;
      reply.header('RateLimit-Policy', `${limit};w=${WINDOW_MS / 1000}`);
      reply.header('RateLimit', `limit=${limit}, remaining=${remaining}, reset=${reset}`);
    }
    return payload;
  });
}
