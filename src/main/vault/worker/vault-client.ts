import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { startThread, threadEntry } from '../../threads/start-thread.js';
import { acceptedScrypt, type ScryptParams, type VaultCodec } from '../keys/secret-codec.js';
import { VaultError } from '../vault-error.js';
import type {
  AnyVaultMethod,
  AnyVaultMethods,
  CodecRequest,
  CertificateToCheck,
  CodecResponse,
  DeviceCertificate,
  EnvelopeToOpen,
  OpenOutcome,
  OpenedMessage,
  PassphraseParams,
  SealMessageParams,
  SealMessageResult,
  SignedTransaction,
  SiweSigned,
  TransactionToSign,
  TypedDataToSign,
  VaultMethod,
  VaultMethods,
  VaultRequest,
  VaultResponse,
  VaultStatus,
  VaultWorkerData,
  WalletCreated,
  WalletImported,
} from './vault-protocol.js';

export interface VaultClientOptions {
  /** profile folder; vault.json lives here */
  profileDir: string;
  /** wraps the vault's data key (the Electron app passes one backed by safeStorage); default: passphrase */
  codec?: VaultCodec;
  /** per-call deadline, default 10 s */
  timeoutMs?: number;
  /** after a timeout, how long a liveness ping may take before the worker is replaced; default 2 s */
  pingTimeoutMs?: number;
  /**
   * Where the worker's entry is. Default: `vault-worker.ts` beside this file when running from
   * source (tsx, vitest), `vault-worker.js` beside the bundle otherwise. A bundler that puts
   * the worker elsewhere passes its path (electron-vite: `import p from './vault/worker/vault-worker?modulePath'`).
   */
  workerEntry?: string | URL;
  /** enables the test-only crash/hang methods in the worker */
  testHooks?: boolean;
  /** the cost of the passphrase wraps the vault writes (VaultCoreOptions.scrypt); tests only */
  scrypt?: ScryptParams;
  /** sees every answer from the worker (tests assert that none carries a secret) */
  onResponse?: (response: VaultResponse) => void;
}

export interface CallOptions {
  timeoutMs?: number;
}

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: VaultError) => void;
  timer: NodeJS.Timeout;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_PING_TIMEOUT_MS = 2_000;
/**
 * Bundling: the worker is its own entry. From source the client starts `vault-worker.ts`
 * (through threads/start-thread.ts's tsx bootstrap); from a build it starts `vault-worker.js` beside the
 * bundle that contains this file, so the main-process build needs a second input named
 * `vault-worker` (rollupOptions.input) — or the glue passes `workerEntry`, e.g. from
 * electron-vite's `import vaultWorker from './vault/worker/vault-worker?modulePath'`.
 */

/**
 * The caller's handle on the vault worker. Every method is one round trip; errors are
 * VaultError with a stable `code`. The worker starts on first use and again after a crash
 * (a restarted vault is locked: secrets do not survive the thread).
 */
export class VaultClient {
  private readonly options: VaultClientOptions;
  private worker: Worker | null = null;
  private codecPort: MessagePort | null = null;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private closed = false;

  constructor(options: VaultClientOptions) {
    if (!options?.profileDir) throw new TypeError('VaultClient needs a profileDir');
    if (options.scrypt && !acceptedScrypt(options.scrypt))
      throw new VaultError('bad-request', 'the scrypt option is outside the accepted range');
    this.options = options;
  }

  status(opts?: CallOptions): Promise<VaultStatus> {
    return this.call('status', {}, opts);
  }
  createWallet(params: PassphraseParams, opts?: CallOptions): Promise<WalletCreated> {
    return this.call('createWallet', params, opts);
  }
  importMnemonic(params: PassphraseParams & { mnemonic: string }, opts?: CallOptions): Promise<WalletImported> {
    return this.call('importMnemonic', params, opts);
  }
  importPrivateKey(params: PassphraseParams & { privateKey: string }, opts?: CallOptions): Promise<WalletImported> {
    return this.call('importPrivateKey', params, opts);
  }
  unlock(params: PassphraseParams = {}, opts?: CallOptions): Promise<VaultStatus> {
    return this.call('unlock', params, opts);
  }
  lock(opts?: CallOptions): Promise<VaultStatus> {
    return this.call('lock', {}, opts);
  }
  recoveryPhrase(params: { passphrase?: string } = {}, opts?: CallOptions): Promise<{ phrase: string | null }> {
    return this.call('recoveryPhrase', params, opts);
  }
  deviceCertificate(opts?: CallOptions): Promise<DeviceCertificate> {
    return this.call('deviceCertificate', {}, opts);
  }
  databaseKey(opts?: CallOptions): Promise<{ key: string }> {
    return this.call('databaseKey', {}, opts);
  }
  signSiwe(params: { message: string; expectedUri: string }, opts?: CallOptions): Promise<SiweSigned> {
    return this.call('signSiwe', params, opts);
  }
  sealMessage(params: SealMessageParams, opts?: CallOptions): Promise<SealMessageResult> {
    return this.call('sealMessage', params, opts);
  }
  signTransaction(params: { transaction: TransactionToSign }, opts?: CallOptions): Promise<SignedTransaction> {
    return this.call('signTransaction', params, opts);
  }
  signTypedData(
    params: { typedData: TypedDataToSign },
    opts?: CallOptions,
  ): Promise<{ address: string; signature: string }> {
    return this.call('signTypedData', params, opts);
  }
  openEnvelope(params: { envelope: EnvelopeToOpen }, opts?: CallOptions): Promise<OpenedMessage> {
    return this.call('openEnvelope', params, opts);
  }
  /** One round trip for a batch; each entry succeeds or fails on its own. */
  openMany(params: { envelopes: EnvelopeToOpen[] }, opts?: CallOptions): Promise<OpenOutcome[]> {
    return this.call('openMany', params, opts);
  }
  /** One answer per certificate, in order (true = it verifies); see CertificateToCheck. */
  verifyCertificates(params: { certificates: CertificateToCheck[] }, opts?: CallOptions): Promise<boolean[]> {
    return this.call('verifyCertificates', params, opts);
  }
  ping(opts?: CallOptions): Promise<{ pong: true }> {
    return this.call('ping', {}, opts);
  }

  /** Test-only (needs `testHooks: true`): make the worker die, by exit or by an uncaught throw. */
  testCrashWorker(mode: 'exit' | 'throw' = 'exit', opts?: CallOptions): Promise<never> {
    return this.call('__testCrash', { mode }, opts);
  }
  /** Test-only (needs `testHooks: true`): block the worker thread for `ms`. */
  testHangWorker(ms: number, opts?: CallOptions): Promise<{ slept: number }> {
    return this.call('__testHang', { ms }, opts);
  }

  /** Stops the worker; pending calls fail with `closed`; later calls fail too. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.dropWorker(new VaultError('closed', 'the vault client was closed'));
    if (worker) await worker.terminate();
  }

  private call<M extends VaultMethod>(
    method: M,
    params: VaultMethods[M]['params'],
    opts?: CallOptions,
  ): Promise<VaultMethods[M]['result']>;
  private call<M extends AnyVaultMethod>(
    method: M,
    params: AnyVaultMethods[M]['params'],
    opts?: CallOptions,
  ): Promise<AnyVaultMethods[M]['result']>;
  private call<M extends AnyVaultMethod>(
    method: M,
    params: AnyVaultMethods[M]['params'],
    opts?: CallOptions,
  ): Promise<unknown> {
    if (this.closed) return Promise.reject(new VaultError('closed', 'the vault client was closed'));
    let worker: Worker;
    try {
      worker = this.ensureWorker();
    } catch (e) {
      return Promise.reject(
        new VaultError('worker-crashed', `the vault worker could not start: ${(e as Error).message}`),
      );
    }
    const seq = ++this.seq;
    const timeoutMs = opts?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.onTimeout(seq, timeoutMs), timeoutMs);
      this.pending.set(seq, { method, resolve, reject, timer });
      worker.ref();
      const request: VaultRequest<M> = { seq, method, params };
      worker.postMessage(request);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const entry = threadEntry(import.meta.url, 'vault-worker', this.options.workerEntry);
    const workerData: VaultWorkerData = {
      profileDir: this.options.profileDir,
      testHooks: this.options.testHooks === true,
      ...(this.options.scrypt ? { scrypt: this.options.scrypt } : {}),
    };
    const transferList: MessagePort[] = [];
    if (this.options.codec) {
      const channel = new MessageChannel();
      this.serveCodec(channel.port1, this.options.codec);
      workerData.codecPort = channel.port2;
      transferList.push(channel.port2);
    }
    const worker = startThread(entry, { workerData, transferList });
    worker.on('message', (msg: VaultResponse) => this.onMessage(worker, msg));
    worker.on('error', (e) => this.onWorkerGone(worker, `the vault worker crashed (${e.name}: ${e.message})`));
    worker.on('exit', (code) => this.onWorkerGone(worker, `the vault worker exited (code ${code})`));
    worker.on('messageerror', () => this.onWorkerGone(worker, 'the vault worker sent an unreadable message'));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private serveCodec(port: MessagePort, codec: VaultCodec): void {
    this.codecPort = port;
    port.on('message', async (req: CodecRequest) => {
      let res: CodecResponse;
      try {
        const input = Buffer.from(req.data);
        const out = await (req.op === 'encrypt' ? codec.encrypt(input) : codec.decrypt(input));
        res = { id: req.id, ok: true, data: new Uint8Array(out) };
      } catch (e) {
        res = { id: req.id, ok: false, message: e instanceof Error ? e.message : 'codec failed' };
      }
      port.postMessage(res);
    });
    port.unref();
  }

  private onMessage(worker: Worker, msg: VaultResponse): void {
    if (worker !== this.worker) return;
    this.options.onResponse?.(msg);
    const p = this.pending.get(msg?.seq);
    if (!p) return; // an answer after its timeout
    this.settle(msg.seq);
    if (msg.ok) p.resolve(msg.value);
    else p.reject(new VaultError(msg.error?.code ?? 'internal', msg.error?.message ?? 'vault error'));
  }

  private settle(seq: number): void {
    const p = this.pending.get(seq);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(seq);
    if (this.pending.size === 0) this.worker?.unref();
  }

  private onTimeout(seq: number, timeoutMs: number): void {
    const p = this.pending.get(seq);
    if (!p) return;
    this.settle(seq);
    p.reject(new VaultError('timeout', `the vault did not answer ${p.method} within ${timeoutMs} ms`));
    // A slow call is fine; a wedged thread is not. If the worker cannot even answer a ping,
    // replace it so the next call gets a live vault (locked again).
    const worker = this.worker;
    if (!worker || p.method === 'ping') return;
    this.call('ping', {}, { timeoutMs: this.options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS }).catch(
      (e: VaultError) => {
        if (this.worker === worker && e.code === 'timeout') {
          this.dropWorker(
            new VaultError(
              'worker-crashed',
              'the vault worker stopped answering and was restarted; the vault is locked',
            ),
          );
          void worker.terminate();
        }
      },
    );
  }

  private onWorkerGone(worker: Worker, reason: string): void {
    if (worker !== this.worker) return;
    this.dropWorker(
      new VaultError('worker-crashed', `${reason}; pending calls failed, the next call restarts it (locked)`),
    );
  }

  private dropWorker(error: VaultError): void {
    this.worker = null;
    this.codecPort?.close();
    this.codecPort = null;
    const pending = [...this.pending.entries()];
    this.pending.clear();
    for (const [, p] of pending) {
      clearTimeout(p.timer);
      p.reject(error);
    }
  }
}
