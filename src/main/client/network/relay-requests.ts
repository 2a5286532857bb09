/**
 * One request to the relay's /api/v1 as every route of RelayApi makes it: the credential as a
 * bearer token, paced by a RequestPacer per credential to stay under 120 requests a minute, a
 * 429 sat out for its `Retry-After` (a quota's 429 reported at once, as waiting will not clear
 * it), and the answer checked against its schema, so that a misbehaving relay shows up as a
 * RelayError rather than as undefined deep inside the sync loop.
 */
import type { TSchema, Static } from 'typebox';
import type http from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { createAgent, httpRequest, type HttpResponse, type OnKeyPin } from './http-transport.js';
import { RelayError } from './relay-error.js';
import { checker } from './response-checks.js';
import { RequestPacer, type RequestPriority } from './request-pacer.js';

const QUOTA_CODES = new Set([
  'recipient-full',
  'requests-full',
  'too-many-requests-pending',
  'too-many-groups',
  'blob-quota-full',
  // a group held after wrong passwords: sitting it out would send the same guess again
  'too-many-attempts',
]);

export interface RelayApiOptions {
  /** base URL of the relay, e.g. http://127.0.0.1:8080 (the /api/v1 prefix is added here) */
  baseUrl: string;
  /** the pin of a self-signed relay (https only): its public key's SHA-256, or the whole certificate's; enforced on every connection */
  fingerprint?: string | null;
  /** told the public key's pin when the pin given matched the whole certificate (http-transport.ts) */
  onKeyPin?: OnKeyPin;
  /** `sk_live_…` or `gtk_live_…`; may be set later with setCredential */
  credential?: string | null;
  pacer?: RequestPacer;
  /** how many 429 answers in a row to sit out before giving up */
  max429Retries?: number;
  /** longest Retry-After we are willing to honour in-line (ms); longer becomes an error */
  maxRetryAfterMs?: number;
}

export interface CallOptions<S extends TSchema | null> {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** raw bytes instead of JSON: made afresh for each attempt (a 429 is retried), with their length */
  stream?: { open: () => Readable; length: number; contentType: string };
  /** a 2xx answer's body goes here, streamed */
  sink?: Writable;
  /** answer schema; null = any JSON */
  schema: S;
  auth?: boolean;
  priority?: RequestPriority;
  /** statuses that are a normal answer rather than an error (returned as null) */
  nullOn?: number[];
  timeoutMs?: number;
  signal?: AbortSignal;
  /** sees the answer's headers (before its body is checked) */
  onHeaders?: (headers: HttpResponse['headers']) => void;
}

/** The relay's address, the credential, the connections and the pacing; `call` makes each request. */
export class RelayRequests {
  readonly baseUrl: URL;
  readonly fingerprint: string | null;
  private credential: string | null;
  private readonly agent: http.Agent;
  readonly pacer: RequestPacer;
  private readonly max429Retries: number;
  private readonly maxRetryAfterMs: number;

  constructor(opts: RelayApiOptions) {
    const url = new URL(opts.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('relay URL must be http:// or https://');
    url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    url.search = '';
    url.hash = '';
    this.baseUrl = url;
    this.fingerprint = opts.fingerprint ?? null;
    if (this.fingerprint && url.protocol !== 'https:')
      throw new Error('a certificate fingerprint needs an https:// relay URL');
    this.credential = opts.credential ?? null;
    this.agent = createAgent(url, this.fingerprint, opts.onKeyPin);
    this.pacer = opts.pacer ?? new RequestPacer();
    this.max429Retries = opts.max429Retries ?? 5;
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? 65_000;
  }

  /** The base URL without a trailing slash, as stored in profiles. */
  get origin(): string {
    return this.baseUrl.toString().replace(/\/+$/, '');
  }

  setCredential(credential: string | null): void {
    this.credential = credential;
  }

  hasCredential(): boolean {
    return this.credential !== null;
  }

  close(): void {
    this.agent.destroy();
  }

  /** With `nullOn`, those statuses answer null; any other answer is checked against the schema. */
  protected call<S extends TSchema>(
    method: string,
    path: string,
    opts: CallOptions<S> & { nullOn: number[] },
  ): Promise<Static<S> | null>;
  /** The answer, checked against the schema before it is returned. */
  protected call<S extends TSchema>(method: string, path: string, opts: CallOptions<S>): Promise<Static<S>>;
  /** Any JSON (or nothing) as the answer. */
  protected call(method: string, path: string, opts: CallOptions<null>): Promise<unknown>;
  protected async call(method: string, path: string, opts: CallOptions<TSchema | null>): Promise<unknown> {
    const url = new URL(this.baseUrl.toString());
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/api/v1${path}`;
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    if (opts.auth !== false) {
      if (!this.credential) throw new RelayError(401, 'not signed in to this relay', 'no-credential');
      headers.authorization = `Bearer ${this.credential}`;
    }
    let body: Buffer | undefined;
    if (opts.body !== undefined) {
      body = Buffer.from(JSON.stringify(opts.body));
      headers['content-type'] = 'application/json';
    } else if (opts.stream) {
      headers['content-type'] = opts.stream.contentType;
      headers['content-length'] = String(opts.stream.length);
    }
    let res: HttpResponse;
    for (let attempt = 0; ; attempt++) {
      // the sign-in routes are budgeted per peer address, not per credential, but pacing them too costs nothing
      await this.pacer.acquire(opts.priority ?? 'user');
      res = await httpRequest(this.agent, {
        method,
        url,
        headers,
        body: opts.stream ? opts.stream.open() : body,
        sink: opts.sink,
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
      });
      // a quota 429 (the recipient's queue is full) will not clear by waiting a moment: report it
      if (res.status !== 429 || QUOTA_CODES.has((parseJson(res.body) as { code?: unknown } | null)?.code as string))
        break;
      const waitMs = retryAfterMs(res.headers['retry-after']);
      if (attempt >= this.max429Retries || waitMs > this.maxRetryAfterMs) {
        throw new RelayError(429, `relay rate limit: retry after ${Math.ceil(waitMs / 1000)} s`, 'rate-limited');
      }
      this.pacer.pauseFor(waitMs);
    }
    opts.onHeaders?.(res.headers);
    const json = parseJson(res.body);
    if (opts.nullOn?.includes(res.status)) return null;
    if (res.status < 200 || res.status >= 300) {
      const err = json as { error?: unknown; code?: unknown } | null;
      const message = typeof err?.error === 'string' ? err.error : `relay answered HTTP ${res.status}`;
      throw new RelayError(res.status, message, typeof err?.code === 'string' ? err.code : null);
    }
    if (opts.schema !== null && !checker(opts.schema).check(json)) {
      throw new RelayError(502, `relay answer to ${method} ${path} does not match the API contract`, 'bad-answer');
    }
    return json;
  }
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return null;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

function retryAfterMs(h: string | string[] | undefined): number {
  const v = Array.isArray(h) ? h[0] : h;
  if (!v) return 1000;
  const secs = Number(v);
  if (Number.isFinite(secs) && secs >= 0) return Math.max(250, secs * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(250, at - Date.now()) : 1000;
}
