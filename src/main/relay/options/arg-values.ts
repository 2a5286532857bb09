/**
 * The checks every relay setting's value goes through, whichever source gave it (a flag, an
 * environment variable, the config file): each names the setting as the operator wrote it, so
 * a refusal says where to look. Pure: no I/O.
 */
import { isIP } from 'node:net';
import type { StakeCurrency } from '../../../shared/api/common.js';
import { ADDRESS, TYPED_HANDLE, bareHandle } from '../../../shared/identity-patterns.js';

export const DEFAULT_HOST = '127.0.0.1';
export const LAN_HOST = '0.0.0.0';
export const DEFAULT_PORT = 8787;
export const DEFAULT_DATA_DIR = './relay-data';
export const DEFAULT_STAKE_CONFIRMATIONS = 2;

/** Bad arguments: the CLI prints the message and the usage, and exits 2 (1 for admin). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** An address (lower-cased) or a handle (lower-cased, without a leading @). */
export function accountRef(s: string): string {
  if (ADDRESS.test(s)) return s.toLowerCase();
  if (TYPED_HANDLE.test(s)) return bareHandle(s).toLowerCase();
  throw new UsageError(`not a wallet address (0x + 40 hex) or handle: ${JSON.stringify(s)}`);
}

export function isAddress(s: string): boolean {
  return ADDRESS.test(s);
}

/** A postgres:// or postgresql:// URL; the empty string (an unset variable) means none. */
export function databaseUrl(v: string | undefined, name = '--database'): string | null {
  if (v === undefined || v.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new UsageError(`${name}: not a URL (postgres://user@host:5432/database)`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new UsageError(`${name}: expected a postgres:// URL, got ${url.protocol}//…`);
  return v;
}

export function nodeId(v: string, name = '--node-id'): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(v))
    throw new UsageError(`${name}: 1 to 64 letters, digits, '.', '_' or '-', got ${JSON.stringify(v)}`);
  return v;
}

export function nonEmptyPath(name: string, v: string): string {
  if (v.trim() === '') throw new UsageError(`${name}: empty path`);
  return v;
}

export function integer(name: string, v: string, min: number, max: number): number {
  if (!/^\d+$/.test(v)) throw new UsageError(`${name}: expected an integer, got ${JSON.stringify(v)}`);
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${name}: must be between ${min} and ${max}, got ${v}`);
  return n;
}

/** One of `allowed`, as written (case-sensitive, so a config file reads the same everywhere). */
export function oneOf<T extends string>(name: string, v: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new UsageError(`${name}: expected ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
}

export function rpcUrl(name: string, v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`${name}: not a URL: ${JSON.stringify(v)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`${name}: must be http:// or https://, got ${JSON.stringify(v)}`);
  return v;
}

export function stakeCurrency(v: string, name = '--stake-currency'): StakeCurrency {
  const up = v.toUpperCase();
  if (up === 'ETH' || up === 'CRO') return up;
  throw new UsageError(`${name}: expected ETH or CRO, got ${JSON.stringify(v)}`);
}

export function baseUrl(v: string, name = '--base-url'): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`${name}: not a URL: ${JSON.stringify(v)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`${name}: must be http:// or https://, got ${JSON.stringify(v)}`);
  if (u.search || u.hash || u.username || u.password)
    throw new UsageError(`${name}: no query, fragment or credentials allowed: ${JSON.stringify(v)}`);
  return u.href.replace(/\/+$/, '');
}

export function isHostName(h: string): boolean {
  // a host name, an IPv4 address or a bare IPv6 literal; no scheme, port or path
  return /^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(h) || isIP(h) === 6;
}
