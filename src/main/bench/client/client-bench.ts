/**
 * Client section of `npm run bench`: the wall time of one group send as a user experiences
 * it, against a real relay process (the relay CLI, rate limit off): 100 other members with
 * two certified devices each, so the send seals 200 copies and posts them (in two batches of
 * 100, the relay's per-request cap). Measured through Messenger.sendAndWait: the local
 * commit, GET /groups/{id}, certificate checks (memoised after the first send), signing and
 * sealing in the vault worker (node:crypto), the posts, and recording the routing.
 *
 * Targets on the 2-core machine: group_send_200_copies_ms (median, warm) and group_send_cold_ms
 * (the first send, its 200 certificates never seen, in an app open for a few seconds) ≤ 150 ms.
 * Beside them, in the same run, 200 unseen certificates checked on one thread (as a cold send
 * did before) and split with the vault worker (as it does now).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { x25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { verifyInParallel } from '../../client/trust/certified-devices.js';
import { Messenger } from '../../client/core/messenger.js';
import { certifiedMemberDevices } from '../../client/messages/sealed-envelopes.js';
import { warmResponseChecks } from '../../client/network/relay-api.js';
import { signDeviceCertificate, warmCertificateChecks } from '../../vault/signing/device-certificate.js';
import { addressFromPrivateKeyViaOpenSsl as addressFromPrivateKey } from '../../vault/signing/openssl-address.js';
import { startTs } from '../../test-support/child-process.js';
import { callJson, signIn } from '../../test-support/sign-in.js';

export interface ClientBenchOptions {
  quick?: boolean;
  log?: (line: string) => void;
  /** members besides the sender (default 100) */
  members?: number;
}

const RELAY_ENTRY = resolve(import.meta.dirname, '../../relay/cli.ts');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function inBatches<T>(count: number, size: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += size) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => fn(i + j)))));
  }
  return out;
}

export async function benchClient(opts: ClientBenchOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? (() => undefined);
  const memberCount = opts.members ?? 100;
  const runs = opts.quick ? 3 : 9;
  const dir = mkdtempSync(join(tmpdir(), 'client-bench-'));
  const relay = await startTs(
    RELAY_ENTRY,
    ['--host', '127.0.0.1', '--port', '0', '--data', join(dir, 'relay'), '--rate-limit', '0'],
    /relay listening on (\S+)/,
  );
  const url = relay.ready;
  let messenger: Messenger | null = null;
  try {
    log(`client bench: relay at ${url}; signing in ${memberCount} members with two devices each`);
    const members = await inBatches(memberCount, 10, async (i) => {
      const s = await signIn(url, `bench member ${i}`);
      const second = bytesToHex(x25519.getPublicKey(x25519.utils.randomSecretKey()));
      const certificate = await s.account.signMessage({ message: `Relay device key ${second} for ${s.address}` });
      await callJson('POST', `${url}/api/v1/devices`, s.apiKey, { publicKey: second, certificate });
      return { address: s.address, apiKey: s.apiKey, deviceKeys: [s.deviceKey, second] };
    });

    // the sender is a real profile: vault worker, local database, outbox; no client-side pacing against a relay with its limit off
    messenger = await Messenger.open({ profileDir: join(dir, 'sender'), autoSync: false, requestsPerMinute: 0 });
    const sender = await messenger.wallet.create({ passphrase: 'bench passphrase' });
    // members who allow the sender are added at once rather than invited (docs/protocol.md §12)
    await inBatches(members.length, 10, (i) =>
      callJson('PUT', `${url}/api/v1/contacts/${sender.address}`, members[i].apiKey),
    );
    await messenger.connectRelay({ mode: 'url', url });
    const group = await messenger.groups.create({ name: 'bench group', isPublic: false });
    for (const { address } of members) await messenger.groups.addMember({ groupId: group.id, member: address });
    const conv = `group:${group.id}` as const;

    const timed = async (label: string): Promise<{ ms: number; copies: number }> => {
      const t0 = performance.now();
      const { outcome } = await messenger!.messages.sendAndWait(conv, `bench message ${label}`);
      const ms = performance.now() - t0;
      if (outcome.state !== 'sent') throw new Error(`bench send ${label} was not sent: ${outcome.error}`);
      return { ms, copies: outcome.deliveries.length };
    };

    // A person's first group send finds an app that has been open a few seconds: both threads
    // have warmed their certificate check by then, and main its answer checks (AppServices for
    // this one, the vault worker on its own when idle).
    await warmCertificateChecks();
    warmResponseChecks();
    await new Promise((r) => setTimeout(r, 4000));
    const cold = await timed('cold');
    log(`client bench: first send (verifies ${cold.copies} certificates) ${cold.ms.toFixed(1)} ms`);
    await timed('warm-up');
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) warm.push((await timed(String(i))).ms);

    // the sealing share alone (sign once, seal 200 copies in the vault worker), for comparison
    const deviceKeys = members.flatMap((x) => x.deviceKeys);
    const sealRuns: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await messenger.vault.sealMessage({
        frame: 'group',
        groupId: group.id,
        message: { kind: 'text', text: 'seal only' },
        recipients: deviceKeys.map((k) => ({ deviceKey: k })),
      });
      sealRuns.push(performance.now() - t0);
    }

    // the certificate checks alone, 200 never seen before each time: on this thread only (as
    // before) and split with the vault worker (as a send does now)
    const fresh = (): Record<string, Array<{ publicKey: string; certificate: string }>> => {
      const out: Record<string, Array<{ publicKey: string; certificate: string }>> = {};
      for (let i = 0; i < memberCount; i++) {
        const key = secp256k1.utils.randomSecretKey();
        const address = addressFromPrivateKey(key);
        out[address] = [0, 1].map(() => {
          const publicKey = bytesToHex(x25519.getPublicKey(x25519.utils.randomSecretKey()));
          return { publicKey, certificate: signDeviceCertificate(key, publicKey, address) };
        });
      }
      return out;
    };
    const oneThread: number[] = [];
    const split: number[] = [];
    for (let i = 0; i < (opts.quick ? 1 : 3); i++) {
      const a = fresh();
      const b = fresh();
      let t0 = performance.now();
      if (certifiedMemberDevices(a).length !== 2 * memberCount) throw new Error('a fresh certificate did not verify');
      oneThread.push(performance.now() - t0);
      t0 = performance.now();
      await verifyInParallel(b, messenger.vault);
      if (certifiedMemberDevices(b).length !== 2 * memberCount) throw new Error('a fresh certificate did not verify');
      split.push(performance.now() - t0);
    }

    const result = {
      certificate_checks_200_one_thread_ms: round(median(oneThread)),
      certificate_checks_200_split_ms: round(median(split)),
      group_send_200_copies_ms: round(median(warm)),
      group_send_200_copies_max_ms: round(Math.max(...warm)),
      group_send_cold_ms: round(cold.ms),
      seal_200_copies_ms: round(median(sealRuns)),
      copies: cold.copies,
    };
    log(`client bench: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await messenger?.close();
    await relay.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

// `npx tsx src/main/bench/client/client-bench.ts [--quick]` runs this section alone
if (import.meta.url === `file://${process.argv[1]}`) {
  benchClient({ quick: process.argv.includes('--quick'), log: (l) => process.stderr.write(`${l}\n`) }).then(
    (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exit(1);
    },
  );
}
