import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hash } from 'node:crypto';
import { HttpError } from './errors.js';
import { SlidingWindowStore } from './sliding-window-store.js';

const WINDOW_MS = 60_000;

/**
 * The key a request counts against: its credential when it presents one (401s included, so a
 * guessing client is slowed too), else the peer address. The secret is hashed so the limiter
 * never holds credentials in memory.
 */
export function rateLimitKey(req: FastifyRequest): string {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.length > 0) return 'cred:' + hash('sha256', auth, 'base64url').slice(0, 22);
  return 'ip:' + req.ip;
}

/** Both sign-in routes share one budget per TCP peer (relay-contract §4). */
export const signInRateLimit = (max: number) => ({ max, timeWindow: WINDOW_MS, keyGenerator: (req: FastifyRequest) => 'signin:' + req.ip });

export async function registerRateLimit(app: FastifyInstance, max: number): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max,
    timeWindow: WINDOW_MS,
    hook: 'onRequest',
    store: SlidingWindowStore,
    keyGenerator: rateLimitKey,
    enableDraftSpec: true,
    // `/`, its assets and the OpenAPI document are free (relay-contract §4).
    allowList: (req) => !req.url.startsWith('/api/'),
    errorResponseBuilder: (_req, ctx) => new HttpError(429, `rate limit exceeded: ${ctx.max} requests a minute; retry in ${ctx.after}`, 'rate-limited'),
  });
  // The IETF draft's combined fields, beside the plugin's RateLimit-Limit/-Remaining/-Reset.
  app.addHook('onSend', async (req, reply, payload) => {
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
