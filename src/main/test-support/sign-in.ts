/**
 * Signs a wallet in through the relay's real account API (docs/protocol.md §3 Sign-in): challenge,
 * EIP-191 signature, device certificate. Used by the bench and by the CLI test, so both
 * drive the relay exactly as a client does.
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

export interface SignedIn {
  account: PrivateKeyAccount;
  /** lower-case */
  address: string;
  /** the device's X25519 public key, 64 lower-case hex */
  deviceKey: string;
  /** `sk_live_` secret bound to the device */
  apiKey: string;
}

export async function signIn(baseUrl: string, label = 'bench'): Promise<SignedIn> {
  const account = privateKeyToAccount(generatePrivateKey());
  const address = account.address.toLowerCase();
  const deviceKey = bytesToHex(x25519.getPublicKey(x25519.utils.randomSecretKey()));
  const challenge = (await postJson(`${baseUrl}/api/v1/auth/challenge`, { address })) as { message: string };
  const signature = await account.signMessage({ message: challenge.message });
  const certificate = await account.signMessage({ message: `Relay device key ${deviceKey} for ${address}` });
  const minted = (await postJson(`${baseUrl}/api/v1/auth/keys`, {
    message: challenge.message,
    signature,
    label,
    device: { publicKey: deviceKey, certificate },
  })) as { apiKey: string };
  return { account, address, deviceKey, apiKey: minted.apiKey };
}

/** A JSON call that throws with the relay's error text on any non-2xx answer. */
export async function callJson(method: string, url: string, apiKey: string | null, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 300)}`);
  return text === '' ? null : JSON.parse(text);
}

function postJson(url: string, body: unknown): Promise<unknown> {
  return callJson('POST', url, null, body);
}
