/**
 * One keep-alive HTTP/1.1 connection with one request at a time, for the live-scale bench's
 * load generator, which holds thousands of them in one process: pre-built request bytes out,
 * the answer's status and body back, no node:http (its IncomingMessage, parser and agent per
 * request cost the generator more CPU than the relay spends on the same request). Answers
 * must carry Content-Length (the relay's always do).
 */
import { connect, type Socket } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

export interface RawAnswer {
  status: number;
  body: Buffer;
}

export class RawHttpConnection {
  #socket: Socket | null = null;
  #buffer: Buffer = Buffer.alloc(0);
  #bodyStart = -1;
  #end = -1;
  #pending: { resolve: (a: RawAnswer) => void; reject: (e: Error) => void } | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** The bytes of a request: keep-alive (HTTP/1.1's default), a JSON body with its length when given. */
  static request(host: string, method: string, path: string, headers: Record<string, string>, body?: string): Buffer {
    const lines = [
      `${method} ${path} HTTP/1.1`,
      `host: ${host}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    if (body !== undefined) lines.push('content-type: application/json', `content-length: ${Buffer.byteLength(body)}`);
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`, 'utf8');
  }

  async open(): Promise<void> {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (e) => this.#fail(e));
    socket.on('close', () => this.#fail(new Error('the server closed the connection')));
    this.#socket = socket;
  }

  /** Writes one request; resolves with its whole answer. */
  send(request: Buffer): Promise<RawAnswer> {
    if (!this.#socket || this.#socket.destroyed) return Promise.reject(new Error('the connection is not open'));
    if (this.#pending) return Promise.reject(new Error('one request at a time on a raw connection'));
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket!.write(request);
    });
  }

  get isOpen(): boolean {
    return this.#socket !== null && !this.#socket.destroyed;
  }

  close(): void {
    this.#socket?.destroy();
  }

  #onData(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    if (this.#bodyStart < 0) {
      const at = this.#buffer.indexOf(HEAD_END);
      if (at < 0) return;
      const length = CONTENT_LENGTH.exec(this.#buffer.toString('latin1', 0, at));
      if (!length) return this.#fail(new Error('an answer without Content-Length'));
      this.#bodyStart = at + HEAD_END.length;
      this.#end = this.#bodyStart + Number(length[1]);
    }
    if (this.#buffer.length < this.#end) return;
    const answer = {
      status: Number(this.#buffer.toString('latin1', 9, 12)),
      body: this.#buffer.subarray(this.#bodyStart, this.#end),
    };
    this.#buffer = this.#buffer.subarray(this.#end);
    this.#bodyStart = -1;
    this.#end = -1;
    const p = this.#pending;
    this.#pending = null;
    p?.resolve(answer);
  }

  #fail(error: Error): void {
    const p = this.#pending;
    this.#pending = null;
    p?.reject(error);
  }
}
