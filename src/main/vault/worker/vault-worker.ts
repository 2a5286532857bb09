import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { verifyDeviceCertificates, warmCertificateChecks } from '../signing/device-certificate.js';
import type { VaultCodec } from '../keys/secret-codec.js';
import { VaultCore } from '../vault-core.js';
import { VaultError } from '../vault-error.js';
import type {
  AnyVaultMethod,
  AnyVaultMethods,
  CodecRequest,
  CodecResponse,
  SerializedError,
  VaultRequest,
  VaultResponse,
  VaultWorkerData,
} from './vault-protocol.js';

/**
 * The only thread that ever holds the wallet key, the seed and the device private key.
 * Started by VaultClient; speaks vault-protocol.ts over parentPort.
 */

if (!parentPort) throw new Error('vault-worker.ts must run as a worker thread (use VaultClient)');
const port = parentPort;
const data = workerData as VaultWorkerData;

/** The caller's codec, reached over its own port: only the 32-byte data key crosses. */
function remoteCodec(codecPort: MessagePort): VaultCodec {
  let next = 1;
  const waiting = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();
  codecPort.on('message', (msg: CodecResponse) => {
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.ok) w.resolve(Buffer.from(msg.data));
    else w.reject(new VaultError('codec-failed', msg.message));
  });
  // only hold the thread open while a codec call is outstanding
  codecPort.unref();
  const call = (op: CodecRequest['op'], buf: Buffer) =>
    new Promise<Buffer>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      const req: CodecRequest = { id, op, data: new Uint8Array(buf) };
      codecPort.postMessage(req);
    });
  return { encrypt: (b) => call('encrypt', b), decrypt: (b) => call('decrypt', b) };
}

const core = new VaultCore({
  profileDir: data.profileDir,
  codec: data.codecPort ? remoteCodec(data.codecPort) : undefined,
  scrypt: data.scrypt,
});

type Handlers = {
  [M in keyof AnyVaultMethods]: (
    params: AnyVaultMethods[M]['params'],
  ) => AnyVaultMethods[M]['result'] | Promise<AnyVaultMethods[M]['result']>;
};

const handlers: Handlers = {
  ping: () => ({ pong: true }),
  status: () => core.status(),
  createWallet: (p) => core.createWallet(p),
  importMnemonic: (p) => core.importMnemonic(p),
  importPrivateKey: (p) => core.importPrivateKey(p),
  unlock: (p) => core.unlock(p),
  lock: () => core.lock(),
  recoveryPhrase: (p) => core.recoveryPhrase(p),
  deviceCertificate: () => core.deviceCertificate(),
  databaseKey: () => core.databaseKey(),
  signSiwe: (p) => core.signSiwe(p),
  sealMessage: (p) => core.sealMessage(p),
  signTransaction: (p) => core.signTransaction(p),
  signTypedData: (p) => core.signTypedData(p),
  openEnvelope: (p) => core.openEnvelope(p),
  openMany: (p) => core.openMany(p),
  verifyCertificates: (p) => verifyDeviceCertificates(p.certificates),
  __testCrash: (p) => {
    if (!data.testHooks) throw new VaultError('bad-request', 'unknown method');
    if (p?.mode === 'throw') {
      setImmediate(() => {
        throw new Error('vault worker test crash');
      });
      return new Promise<never>(() => undefined);
    }
    process.exit(70);
  },
  __testHang: (p) => {
    if (!data.testHooks) throw new VaultError('bad-request', 'unknown method');
    // block the thread the way a wedged native call would
    const ms = Math.min(Math.max(Number(p?.ms) || 0, 0), 60_000);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    return { slept: ms };
  },
};

/** The message comes from another thread: only a method of the protocol is run. */
function isVaultMethod(method: unknown): method is AnyVaultMethod {
  return typeof method === 'string' && Object.prototype.hasOwnProperty.call(handlers, method);
}

/** Generic in the method, so that the handler and its params are looked up as one pair. */
async function run<M extends AnyVaultMethod>(req: VaultRequest<M>): Promise<AnyVaultMethods[M]['result']> {
  const handler: Handlers[M] = handlers[req.method];
  return handler(req.params ?? {});
}

function serialize(e: unknown): SerializedError {
  if (e instanceof VaultError) return { code: e.code, message: e.message };
  // never echo arbitrary error text: a library error could quote its input
  const name = e instanceof Error ? e.name : typeof e;
  return { code: 'internal', message: `internal vault error (${name})` };
}

// Once the worker has been idle a while (nothing asked or in flight, the unlock done), it
// warms the certificate check, so a first group send's share of checks runs at full speed
// here. A short-lived command (the CLI) is gone before then.
const WARM_AFTER_IDLE_MS = 3000;
let inFlight = 0;
let warmTimer: NodeJS.Timeout | null = setTimeout(warm, WARM_AFTER_IDLE_MS).unref();
function warm(): void {
  if (inFlight > 0) return void warmTimer?.refresh();
  warmTimer = null;
  warmCertificateChecks().catch(() => undefined);
}

port.on('message', async (req: VaultRequest) => {
  inFlight++;
  warmTimer?.refresh();
  const seq = typeof req?.seq === 'number' ? req.seq : -1;
  let response: VaultResponse;
  try {
    const method: unknown = req?.method;
    if (!isVaultMethod(method)) throw new VaultError('bad-request', `unknown method ${String(method).slice(0, 40)}`);
    response = { seq, ok: true, value: await run<AnyVaultMethod>(req) };
  } catch (e) {
    response = { seq, ok: false, error: serialize(e) };
  }
  inFlight--;
  warmTimer?.refresh();
  port.postMessage(response);
});
