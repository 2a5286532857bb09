/**
 * The client's one way onto the network: plain node:http(s) with keep-alive, and for a LAN
 * relay with a self-signed certificate, a pin: the SHA-256 of the certificate's public key
 * (SPKI), which the relay keeps across renewals. A pin taken before relays pinned the key is the
 * hash of the whole certificate; it still matches that certificate, and the caller is told the
 * key's pin to keep instead (`onKeyPin`), since the certificate's hash ends at its renewal.
 *
 * Why not fetch + an undici Agent with `checkServerIdentity`: with `rejectUnauthorized: false`
 * Node never calls `checkServerIdentity` for a certificate that already failed chain
 * verification (every self-signed one does), so such a pin silently accepts anything. Here
 * the socket is handed to the request only after the pin matched (`createConnection` in its
 * callback form), so not a byte of a request (nor its bearer token) reaches a wrong server.
 */
import http from 'node:http';
import https from 'node:https';
import { createHash } from 'node:crypto';
import tls from 'node:tls';
import { pipeline } from 'node:stream/promises';
import type { Duplex, Readable, Writable } from 'node:stream';

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface HttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** a stream is sent as it is read (the caller sets content-length); a Buffer whole */
  body?: Buffer | Readable;
  /** a 2xx answer's body is streamed here instead of collected (the answer's `body` is then empty) */
  sink?: Writable;
  timeoutMs?: number;
  /** cancels the request (a held pull when the app locks or closes): rejects with code `aborted` */
  signal?: AbortSignal;
}

/** The relay could not be reached (refused, reset, timed out, or TLS pin mismatch). */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

/**
 * `AA:BB:...`, `aabb...`, `sha256/AA:BB` and curl's `sha256//<base64>` all become 64 lower-case
 * hex characters.
 */
export function normalizeFingerprint(fp: string): string {
  const body = fp.trim().replace(/^sha-?256[:/]*/i, '');
  if (/^[A-Za-z0-9+/]{43}=$/.test(body)) return Buffer.from(body, 'base64').toString('hex');
  const hex = body.replace(/[^0-9a-fA-F]/g, '').toLowerCase();
  if (hex.length !== 64) throw new Error('a certificate fingerprint must be 32 bytes of hex (SHA-256)');
  return hex;
}

/**
 * How long an idle kept-alive connection is kept: under the relay's own 5 s (app.ts), so this
 * side closes it first, instead of reusing it just as the relay closes it (a reset request).
 */
export const IDLE_SOCKET_MS = 4_000;

/** Told the key's pin (hex) when a connection matched a pin on the whole certificate. */
export type OnKeyPin = (keyPin: string) => void;

/** Keep-alive agent; for https with a pin, one that checks the certificate before use. */
export function createAgent(baseUrl: URL, fingerprint: string | null, onKeyPin?: OnKeyPin): http.Agent {
  if (baseUrl.protocol === 'http:') return new http.Agent({ keepAlive: true, maxSockets: 8, timeout: IDLE_SOCKET_MS });
  if (fingerprint === null) return new https.Agent({ keepAlive: true, maxSockets: 8, timeout: IDLE_SOCKET_MS });
  const pin = normalizeFingerprint(fingerprint);
  return new PinnedAgent(pin, onKeyPin);
}

class PinnedAgent extends https.Agent {
  constructor(
    private readonly pin: string,
    private readonly onKeyPin?: OnKeyPin,
  ) {
    // the chain is not verified (self-signed); the pin below replaces that check entirely
    super({ keepAlive: true, maxSockets: 8, timeout: IDLE_SOCKET_MS, rejectUnauthorized: false });
  }

  override createConnection(
    options: https.RequestOptions,
    cb?: (err: Error | null, socket: Duplex) => void,
  ): Duplex | undefined {
    const socket = tls.connect({ ...(options as tls.ConnectionOptions), rejectUnauthorized: false });
    let settled = false;
    const done = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      socket.removeListener('error', onError);
      if (err) {
        socket.destroy();
        cb?.(err, socket);
      } else cb?.(null, socket);
    };
    const onError = (e: Error): void => done(e);
    socket.once('error', onError);
    socket.once('secureConnect', () => {
      const x509 = socket.getPeerX509Certificate();
      const keyPin = x509
        ? createHash('sha256')
            .update(x509.publicKey.export({ type: 'spki', format: 'der' }))
            .digest('hex')
        : '';
      const whole = x509 ? x509.fingerprint256.replace(/:/g, '').toLowerCase() : '';
      if (keyPin !== '' && keyPin === this.pin) done(null);
      else if (whole !== '' && whole === this.pin) {
        done(null);
        try {
          this.onKeyPin?.(keyPin);
        } catch {
          // (a profile locked meanwhile) the next connection tells it again
        }
      } else
        done(
          new NetworkError(
            `relay certificate does not match the pinned fingerprint (its public-key pin is ${keyPin || 'none'})`,
            'pin-mismatch',
          ),
        );
    });
    // returning undefined tells http.Agent to wait for cb, so nothing is written before the pin check
    return undefined;
  }
}

/**
 * A request that a kept-alive connection lost before any answer (the server closed it as the
 * request went out) is sent once more on a new one, when it is safe to repeat: a GET or HEAD
 * (Node's advice for `request.reusedSocket`). Anything else fails as it is, and its caller decides.
 */
export async function httpRequest(agent: http.Agent, req: HttpRequest): Promise<HttpResponse> {
  try {
    return await attempt(agent, req);
  } catch (e) {
    if (!(e instanceof StaleSocket)) throw e;
    if (req.method !== 'GET' && req.method !== 'HEAD') throw e.cause;
    return attempt(agent, req).catch((again: unknown) => {
      throw again instanceof StaleSocket ? again.cause : again;
    });
  }
}

/** A kept-alive connection was reset before the answer began. */
class StaleSocket extends Error {
  constructor(override readonly cause: NetworkError) {
    super(cause.message);
  }
}

function attempt(agent: http.Agent, req: HttpRequest): Promise<HttpResponse> {
  const mod = req.url.protocol === 'https:' ? https : http;
  return new Promise<HttpResponse>((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    if (Buffer.isBuffer(req.body)) headers['content-length'] = String(req.body.length);
    if (req.signal?.aborted) return reject(new NetworkError('request cancelled', 'aborted'));
    let answered = false;
    const r = mod.request(req.url, { method: req.method, headers, agent, timeout: req.timeoutMs ?? 20_000 }, (res) => {
      answered = true;
      const status = res.statusCode ?? 0;
      if (req.sink && status >= 200 && status < 300) {
        pipeline(res, req.sink).then(
          () => resolve({ status, headers: res.headers, body: Buffer.alloc(0) }),
          (e: unknown) => reject(toNetworkError(e)),
        );
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (e) => reject(toNetworkError(e)));
    });
    r.on('timeout', () => r.destroy(new NetworkError('relay request timed out', 'timeout')));
    r.on('error', (e) => {
      const err = toNetworkError(e);
      reject(
        r.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE') ? new StaleSocket(err) : err,
      );
    });
    if (req.signal) {
      const signal = req.signal;
      const abort = () => r.destroy(new NetworkError('request cancelled', 'aborted'));
      signal.addEventListener('abort', abort, { once: true });
      r.on('close', () => signal.removeEventListener('abort', abort));
    }
    if (req.body && !Buffer.isBuffer(req.body)) {
      const body = req.body;
      body.once('error', (e) => r.destroy(toNetworkError(e)));
      body.pipe(r);
    } else r.end(req.body);
  });
}

function toNetworkError(e: unknown): NetworkError {
  if (e instanceof NetworkError) return e;
  const err = e as NodeJS.ErrnoException;
  return new NetworkError(err?.message ?? String(e), err?.code ?? 'network');
}
