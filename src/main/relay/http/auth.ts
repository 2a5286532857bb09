import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashSecret, hashesEqual, parseSecret } from '../credentials.js';
import type { RelayStore } from '../store/store.js';
import { unauthorized } from './errors.js';

export type Caller =
  | { kind: 'api-key'; keyId: string; address: string; deviceKey: string | null }
  | { kind: 'group-token'; tokenId: string; groupId: string };

/** What a route accepts: an API key, an API key or a group token, or nothing (public). */
export type AuthMode = 'api-key' | 'api-key-or-group-token' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

const TOUCH_EVERY_MS = 60_000;

/**
 * Resolves the bearer credential before anything else looks at the request, so that a missing
 * or bad credential is 401 ahead of 400/404. Malformed secrets fail their checksum and never
 * reach the database.
 */
export function registerAuth(app: FastifyInstance, store: RelayStore, now: () => number): void {
  const lastTouched = new Map<string, number>();
  app.decorateRequest('caller', null);

  // preParsing: after the rate limiter's onRequest hook (so failed guesses are counted) and
  // before the body is read (so a stranger gets 401 before any 400 or 413).
  app.addHook('preParsing', async (req) => {
    const mode = req.routeOptions.config?.auth ?? 'none';
    if (mode === 'none') return;
    const secret = bearer(req);
    const kind = secret ? parseSecret(secret) : null;
    if (!secret || !kind) throw unauthorized();
    const hash = hashSecret(secret);
    if (kind === 'api-key') {
      const key = await store.findApiKeyByHash(hash);
      if (!key || key.revokedAt !== null || !hashesEqual(key.hash, hash)) throw unauthorized();
      req.caller = { kind: 'api-key', keyId: key.id, address: key.address, deviceKey: key.deviceKey };
      const t = now();
      if ((lastTouched.get(key.id) ?? 0) + TOUCH_EVERY_MS <= t) {
        lastTouched.set(key.id, t);
        // Bookkeeping only: never make the request wait for it, never fail the request on it.
        store.touchApiKey(key.id, t).catch((err) => req.log.warn({ err }, 'could not record key use'));
      }
      return;
    }
    if (mode !== 'api-key-or-group-token') throw unauthorized('this route takes an sk_live_ API key', 'api-key-required');
    const token = await store.findBotTokenByHash(hash);
    if (!token || token.revokedAt !== null || !hashesEqual(token.hash, hash)) throw unauthorized();
    req.caller = { kind: 'group-token', tokenId: token.id, groupId: token.groupId };
  });
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}

/** The API-key caller of a route that only takes API keys (auth has already run). */
export function apiKeyCaller(req: FastifyRequest): Extract<Caller, { kind: 'api-key' }> {
  if (req.caller?.kind !== 'api-key') throw unauthorized('this route takes an sk_live_ API key', 'api-key-required');
  return req.caller;
}
