/**
 * The latency probe's client: one keep-alive HTTP/1.1 connection that writes pre-built request
 * bytes and reads every answer into one buffer allocated up front (net's `onread`), like wrk.
 *
 * Why not node:http: a 100-envelope answer is ~95 KB, and node:http's per-read buffers,
 * IncomingMessage and JSON.parse made the load generator itself collect garbage every few dozen
 * requests; those pauses landed inside the measured round trips and were most of the pull p99
 * (docs/benchmarks.md, relay). This client makes no garbage per request, so the figure is the
 * relay's and the machine's.
 */
import { connect, type Socket } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTENT_LENGTH = /^content-length:[ \t]*(\d+)[ \t]*$/im;

export class LeanHttpClient {
  readonly #answer: Buffer;
  #socket: Socket | null = null;
  #length = 0;
  #headEnd = -1;
  #end = -1;
  #pending: { resolve: () => void; reject: (e: Error) => void } | null = null;

  /** `maxAnswerBytes` bounds one whole answer, head included. */
  constructor(
    private readonly url: URL,
    maxAnswerBytes = 4 * 1024 * 1024,
  ) {
    if (url.protocol !== 'http:') throw new Error(`the lean client speaks plain HTTP only, not ${url.protocol}`);
    this.#answer = Buffer.alloc(maxAnswerBytes);
  }

  /** The bytes of a request on this connection: keep-alive, Content-Length body when given. */
  request(method: string, path: string, headers: Record<string, string>, body?: string): Buffer {
    const lines = [
      `${method} ${path} HTTP/1.1`,
      `host: ${this.url.host}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    if (body !== undefined) lines.push('content-type: application/json', `content-length: ${Buffer.byteLength(body)}`);
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body ?? '', 'utf8')]);
  }

  async open(): Promise<void> {
    const chunk = Buffer.alloc(256 * 1024);
    const socket = connect({
      host: this.url.hostname,
      port: Number(this.url.port),
      noDelay: true,
      onread: { buffer: chunk, callback: (n: number, buf: Uint8Array) => this.#onRead(buf as Buffer, n) },
    });
    socket.on('error', (e) => this.#settle(e));
    socket.on('close', () => this.#settle(new Error('the server closed the connection')));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    this.#socket = socket;
  }

  /** Writes one request and resolves once its whole answer has arrived (time to last byte). */
  send(request: Buffer): Promise<void> {
    if (!this.#socket) return Promise.reject(new Error('the lean client is not open'));
    if (this.#pending) return Promise.reject(new Error('one request at a time on the lean client'));
    this.#length = 0;
    this.#headEnd = -1;
    this.#end = -1;
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket!.write(request);
    });
  }

  /** The status code of the last answer. */
  status(): number {
    return Number(this.#answer.toString('latin1', 9, 12));
  }

  /** The body of the last answer (a view into the buffer: copy it to keep it past the next send). */
  body(): Buffer {
    return this.#answer.subarray(this.#headEnd, this.#end);
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = null;
  }

  #onRead(chunk: Buffer, n: number): boolean {
    if (this.#length + n > this.#answer.length) {
      this.#settle(new Error(`an answer is larger than ${this.#answer.length} bytes`));
      return false;
    }
    chunk.copy(this.#answer, this.#length, 0, n);
    this.#length += n;
    if (this.#headEnd < 0) {
      const at = this.#answer.subarray(0, this.#length).indexOf(HEAD_END);
      if (at < 0) return true;
      const head = this.#answer.toString('latin1', 0, at);
      const length = CONTENT_LENGTH.exec(head);
      if (!length) {
        this.#settle(
          new Error(`the answer has no Content-Length (chunked answers are not supported here): ${head.slice(0, 300)}`),
        );
        return false;
      }
      this.#headEnd = at + HEAD_END.length;
      this.#end = this.#headEnd + Number(length[1]);
    }
    if (this.#length >= this.#end) this.#settle(null);
    return true;
  }

  #settle(error: Error | null): void {
    const p = this.#pending;
    this.#pending = null;
    if (!p) return;
    if (error) p.reject(error);
    else p.resolve();
  }
}
