import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashSecret, hashesEqual, parseSecret } from '../auth/credentials.js';
import type { ApiKeyRow, BotTokenRow, RelayStore } from '../store/store.js';
import { unauthorized } from './errors.js';
import { TouchThrottle } from './touch-throttle.js';

export type Caller =
  | { kind: 'api-key'; keyId: string; address: string; deviceKey: string | null }
  | { kind: 'group-token'; tokenId: string; groupId: string; name: string; mintedBy: string | null };

/** What a route accepts: an API key, an API key or a group token, or nothing (public). */
export type AuthMode = 'api-key' | 'api-key-or-group-token' | 'none';

/** A presented credential that exists and is not revoked. */
export type Credential = { kind: 'api-key'; row: ApiKeyRow } | { kind: 'group-token'; row: BotTokenRow };

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
 * Resolves a request's bearer credential once, however many hooks ask (the rate limiter keys
 * on it, auth turns it into the caller). Malformed secrets fail their checksum and never reach
 * the database; `Bearer`, `bearer` and extra whitespace all resolve to the same row.
 */
export function credentialResolver(store: RelayStore): (req: FastifyRequest) => Promise<Credential | null> {
  const resolved = new WeakMap<FastifyRequest, Promise<Credential | null>>();
  const lookup = async (req: FastifyRequest): Promise<Credential | null> => {
    const secret = bearer(req);
    const kind = secret ? parseSecret(secret) : null;
    if (!secret || !kind) return null;
    const hash = hashSecret(secret);
    if (kind === 'api-key') {
      const key = await store.findApiKeyByHash(hash);
      return key && key.revokedAt === null && hashesEqual(key.hash, hash) ? { kind, row: key } : null;
    }
    const token = await store.findBotTokenByHash(hash);
    return token && token.revokedAt === null && hashesEqual(token.hash, hash) ? { kind, row: token } : null;
  };
  return (req) => {
    let p = resolved.get(req);
    if (!p) resolved.set(req, (p = lookup(req)));
    return p;
  };
}

/**
 * Whether the request's credential is still valid now, looked up afresh (not the resolution the
 * request started with): a held pull asks after its node may have missed a revocation.
 */
export function credentialStillValid(store: RelayStore): (req: FastifyRequest) => Promise<boolean> {
  return async (req) => {
    const secret = bearer(req);
    if (!secret || parseSecret(secret) !== 'api-key') return false;
    const hash = hashSecret(secret);
    const key = await store.findApiKeyByHash(hash);
    return key !== null && key.revokedAt === null && hashesEqual(key.hash, hash);
  };
}

/**
 * Turns the credential into the caller before anything else looks at the request, so that a
 * missing or bad credential is 401 ahead of 400/404.
 */
export function registerAuth(
  app: FastifyInstance,
  store: RelayStore,
  resolve: (req: FastifyRequest) => Promise<Credential | null>,
  now: () => number,
): void {
  const touches = new TouchThrottle(TOUCH_EVERY_MS);
  app.decorateRequest('caller', null);

  // preParsing: after the rate limiter's onRequest hook (so failed guesses are counted) and
  // before the body is read (so a stranger gets 401 before any 400 or 413).
  app.addHook('preParsing', async (req) => {
    const mode = req.routeOptions.config?.auth ?? 'none';
    if (mode === 'none') return;
    const credential = await resolve(req);
    if (!credential) throw unauthorized();
    if (credential.kind === 'api-key') {
      const key = credential.row;
      req.caller = { kind: 'api-key', keyId: key.id, address: key.address, deviceKey: key.deviceKey };
      const t = now();
      if (touches.due(key.id, t)) {
        // Bookkeeping only: never make the request wait for it, never fail the request on it.
        store.touchApiKey(key.id, t).catch((err) => req.log.warn({ err }, 'could not record key use'));
      }
      return;
    }
    if (mode !== 'api-key-or-group-token')
      throw unauthorized('this route takes an sk_live_ API key', 'api-key-required');
    req.caller = {
      kind: 'group-token',
      tokenId: credential.row.id,
      groupId: credential.row.groupId,
      name: credential.row.name,
      mintedBy: credential.row.mintedBy,
    };
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
