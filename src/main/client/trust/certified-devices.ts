/**
 * Which device keys really belong to a wallet. The relay hands out device keys, but only a
 * key whose certificate (the wallet's EIP-191 signature over "Relay device key <key> for
 * <address>") verifies is sealed to or believed as a sender's device, so a relay cannot slip
 * in a key of its own.
 *
 * Verification uses the vault's pure verifier. Results are memoised per (address, key,
 * certificate): a certificate that verified once verifies forever, and re-checking 200 of
 * them per group send would cost more than the sealing itself. Many unchecked at once (a cold
 * group send: 200 for 100 two-device members, ~0.5 ms each) are split between this thread and
 * the vault worker, so both cores work on them.
 */
import { verifyDeviceCertificate } from '../../vault/signing/device-certificate.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import type { CertificateToCheck } from '../../vault/worker/vault-protocol.js';
import type { LocalStore } from '../store/local-store.js';
import type { RelayApi } from '../network/relay-api.js';
import type { RequestPriority } from '../network/request-pacer.js';

export interface VerifiedDevice {
  address: string;
  publicKey: string;
  certificate: string;
  createdAt: string;
}

const verified = new Map<string, boolean>();
/** below this many unchecked certificates, a worker round trip is not worth it */
const PARALLEL_FROM = 16;
/** how long a fetched device list is believed without asking the relay again */
const CACHE_TTL_MS = 10 * 60 * 1000;
const MEMO_MAX = 50_000;

function memoKey(address: string, publicKey: string, certificate: string): string {
  return `${address.toLowerCase()}|${publicKey.toLowerCase()}|${certificate.toLowerCase()}`;
}

function remember(key: string, ok: boolean): void {
  if (verified.size >= MEMO_MAX) verified.clear();
  verified.set(key, ok);
}

/** Memoised certificate check (true = signed by `address` for `publicKey`). */
export function certificateVerifies(address: string, publicKey: string, certificate: string): boolean {
  const key = memoKey(address, publicKey, certificate);
  let ok = verified.get(key);
  if (ok === undefined) {
    ok = verifyDeviceCertificate(publicKey.toLowerCase(), address.toLowerCase(), certificate);
    remember(key, ok);
  }
  return ok;
}

/**
 * Checks every not yet memoised certificate of `memberDevices`, half of them in the vault
 * worker while this thread does the other half; afterwards certificateVerifies() answers
 * them all from the memo.
 */
export async function verifyInParallel(
  memberDevices: Record<string, Array<{ publicKey: string; certificate: string }>>,
  vault: Pick<VaultClient, 'verifyCertificates'>,
): Promise<void> {
  const unchecked: CertificateToCheck[] = [];
  const seen = new Set<string>();
  for (const [address, list] of Object.entries(memberDevices)) {
    for (const d of list) {
      const key = memoKey(address, d.publicKey, d.certificate);
      if (verified.has(key) || seen.has(key)) continue;
      seen.add(key);
      unchecked.push({
        address: address.toLowerCase(),
        publicKey: d.publicKey.toLowerCase(),
        certificate: d.certificate,
      });
    }
  }
  if (unchecked.length < PARALLEL_FROM) return; // certificateVerifies() checks these few as it meets them
  const half = Math.floor(unchecked.length / 2);
  const theirs = unchecked.slice(half);
  const answers = vault.verifyCertificates({ certificates: theirs });
  for (const c of unchecked.slice(0, half)) certificateVerifies(c.address, c.publicKey, c.certificate);
  // a vault restarting or closed: certificateVerifies() checks the rest here as it meets them
  const oks = await answers.catch(() => null);
  if (oks?.length === theirs.length)
    theirs.forEach((c, i) => remember(memoKey(c.address, c.publicKey, c.certificate), oks[i] === true));
}

/** Keeps only the devices whose certificate verifies for `address`; reports the others. */
export function keepCertified(
  address: string,
  devices: Array<{ publicKey: string; certificate: string; createdAt?: string }>,
  onRejected?: (publicKey: string) => void,
): VerifiedDevice[] {
  const out: VerifiedDevice[] = [];
  const a = address.toLowerCase();
  for (const d of devices) {
    if (certificateVerifies(a, d.publicKey, d.certificate)) {
      out.push({
        address: a,
        publicKey: d.publicKey.toLowerCase(),
        certificate: d.certificate,
        createdAt: d.createdAt ?? '',
      });
    } else onRejected?.(d.publicKey);
  }
  return out;
}

export class CertifiedDevices {
  /** addresses refetched during the current sync pass (one GET /keys per sender per pass) */
  private refreshedThisPass = new Set<string>();

  constructor(
    private readonly api: () => RelayApi,
    private readonly store: LocalStore,
    private readonly now: () => number = Date.now,
    private readonly onRejected?: (address: string, publicKey: string) => void,
    /** every fresh list, for the safety numbers' device notices (trust.ts) */
    private readonly onFetched?: (address: string, devices: VerifiedDevice[]) => void,
  ) {}

  /** Fresh from the relay (as a sender must), certificates verified; [] when the address has no devices. */
  async fetch(address: string, priority: RequestPriority = 'user'): Promise<VerifiedDevice[]> {
    const a = address.toLowerCase();
    const res = await this.api().deviceKeys(a, priority);
    const devices = res === null ? [] : keepCertified(a, res.devices, (pk) => this.onRejected?.(a, pk));
    this.store.replaceCertifiedDevices(a, devices, this.now());
    this.refreshedThisPass.add(a);
    this.onFetched?.(a, devices);
    return devices;
  }

  startPass(): void {
    this.refreshedThisPass = new Set();
  }

  /**
   * Is `publicKey` a certified device of `address`? Answers from the cache when it knows the
   * key and the list is younger than 10 minutes; otherwise asks the relay, at most once per
   * address per pass (a new device, one we never saw, or a list that may be stale).
   * Network trouble propagates (the caller retries later rather than rejecting).
   */
  async isCertified(address: string, publicKey: string): Promise<boolean> {
    const a = address.toLowerCase();
    const k = publicKey.toLowerCase();
    const cached = this.store.certifiedDevices(a);
    // a revoked device leaves GET /keys at once; a bounded cache age bounds how long we still believe it
    const young = cached.length > 0 && cached.every((d) => this.now() - d.fetchedMs < CACHE_TTL_MS);
    if (young && cached.some((d) => d.publicKey === k && certificateVerifies(a, d.publicKey, d.certificate)))
      return true;
    if (this.refreshedThisPass.has(a))
      return cached.some((d) => d.publicKey === k && certificateVerifies(a, d.publicKey, d.certificate));
    const fresh = await this.fetch(a, 'background');
    return fresh.some((d) => d.publicKey === k);
  }
}
