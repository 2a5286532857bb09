import type Database from 'better-sqlite3';
import { ensureAccountStatement, isUniqueViolation } from './sqlite-accounts.js';
import type { GroupCommit } from './group-commit.js';
import { tooManyKeys } from '../limit-refusals.js';
import { MAX_DEVICES, StoreError, type ApiKeyRow, type DeviceRow } from '../store.js';
import type { CredentialsPart } from '../store-parts.js';

const DEVICE_COLUMNS = `public_key AS publicKey, address, certificate, created_at AS createdAt, revoked_at AS revokedAt`;
const API_KEY_COLUMNS = `id, address, label, prefix, device_key AS deviceKey, created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt`;

/** Statements on every authenticated request; exported so that tests can EXPLAIN them. */
export const CREDENTIAL_SQL = {
  apiKeyByHash: `SELECT ${API_KEY_COLUMNS}, hash FROM api_keys WHERE hash = ?`,
  touchApiKey: `UPDATE api_keys SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?`,
} as const;

/** Devices and API keys: what identifies a caller. */
export function credentialsPart(db: Database.Database, commit: GroupCommit): CredentialsPart {
  const s = {
    ensureAccount: ensureAccountStatement(db),
    insertDevice: db.prepare<[string, string, string, number]>(
      `INSERT INTO devices (public_key, address, certificate, created_at) VALUES (?, ?, ?, ?)`,
    ),
    currentDevice: db
      .prepare<[string, string], number>(
        `SELECT 1 FROM devices WHERE public_key = ? AND address = ? AND revoked_at IS NULL`,
      )
      .pluck(),
    deviceCount: db
      .prepare<[string], number>(`SELECT count(*) FROM devices WHERE address = ? AND revoked_at IS NULL`)
      .pluck(),
    devices: db.prepare<[string], DeviceRow>(
      `SELECT ${DEVICE_COLUMNS} FROM devices WHERE address = ? AND revoked_at IS NULL ORDER BY created_at, rowid`,
    ),
    revokeDevice: db.prepare<[number, string, string]>(
      `UPDATE devices SET revoked_at = ? WHERE public_key = ? AND address = ? AND revoked_at IS NULL`,
    ),
    revokeDeviceKeys: db.prepare<[number, string]>(
      `UPDATE api_keys SET revoked_at = ? WHERE device_key = ? AND revoked_at IS NULL`,
    ),
    dropDeviceEnvelopes: db.prepare<[string, string]>(`DELETE FROM envelopes WHERE recipient = ? AND device_key = ?`),
    insertApiKey: db.prepare<
      [string, string, Buffer, string | null, string, string | null, number, number | null, number | null]
    >(
      `INSERT INTO api_keys (id, address, hash, label, prefix, device_key, created_at, last_used_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    activeKeys: db
      .prepare<[string], number>(`SELECT count(*) FROM api_keys WHERE address = ? AND revoked_at IS NULL`)
      .pluck(),
    apiKeyByHash: db.prepare<[Buffer], ApiKeyRow & { hash: Buffer }>(CREDENTIAL_SQL.apiKeyByHash),
    apiKeys: db.prepare<[string], ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE address = ? ORDER BY created_at, rowid`,
    ),
    // Revoking twice keeps the first time.
    revokeApiKey: db.prepare<[number, string, string]>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND address = ?`,
    ),
    touchApiKey: db.prepare<[number, string]>(CREDENTIAL_SQL.touchApiKey),
  };

  const addDevice = db.transaction(
    (d: { publicKey: string; address: string; certificate: string; now: number }): DeviceRow => {
      s.ensureAccount.run(d.address);
      registerDevice(d);
      return {
        publicKey: d.publicKey,
        address: d.address,
        certificate: d.certificate,
        createdAt: d.now,
        revokedAt: null,
      };
    },
  );

  function registerDevice(d: { publicKey: string; address: string; certificate: string; now: number }): void {
    if (s.deviceCount.get(d.address)! >= MAX_DEVICES) {
      throw new StoreError(
        'too-many-devices',
        `a wallet can have at most ${MAX_DEVICES} current devices; revoke one first`,
      );
    }
    try {
      s.insertDevice.run(d.publicKey, d.address, d.certificate, d.now);
    } catch (e) {
      if (isUniqueViolation(e)) throw new StoreError('device-exists', 'device key is already registered');
      throw e;
    }
  }

  const revokeDevice = db.transaction((address: string, publicKey: string, now: number): boolean => {
    if (s.revokeDevice.run(now, publicKey, address).changes === 0) return false;
    s.revokeDeviceKeys.run(now, publicKey);
    s.dropDeviceEnvelopes.run(address, publicKey);
    return true;
  });

  const insertApiKey = db.transaction(
    (k: ApiKeyRow & { hash: Buffer }, maxActive: number, device?: { certificate: string }) => {
      s.ensureAccount.run(k.address);
      if (s.activeKeys.get(k.address)! >= maxActive) throw tooManyKeys(maxActive);
      if (device && k.deviceKey && !s.currentDevice.get(k.deviceKey, k.address)) {
        registerDevice({
          publicKey: k.deviceKey,
          address: k.address,
          certificate: device.certificate,
          now: k.createdAt,
        });
      }
      s.insertApiKey.run(
        k.id,
        k.address,
        k.hash,
        k.label,
        k.prefix,
        k.deviceKey,
        k.createdAt,
        k.lastUsedAt,
        k.revokedAt,
      );
    },
  );

  return {
    async addDevice(d) {
      return addDevice.immediate({ ...d, publicKey: d.publicKey.toLowerCase(), address: d.address.toLowerCase() });
    },
    async listDevices(address) {
      return s.devices.all(address.toLowerCase());
    },
    async revokeDevice(address, publicKey, now) {
      return revokeDevice.immediate(address.toLowerCase(), publicKey.toLowerCase(), now);
    },
    async insertApiKey(k, maxActive = Infinity, device) {
      insertApiKey.immediate(
        {
          ...k,
          id: k.id.toLowerCase(),
          address: k.address.toLowerCase(),
          deviceKey: k.deviceKey?.toLowerCase() ?? null,
        },
        maxActive,
        device,
      );
    },
    async findApiKeyByHash(hash) {
      return s.apiKeyByHash.get(hash) ?? null;
    },
    async listApiKeys(address) {
      return s.apiKeys.all(address.toLowerCase());
    },
    async revokeApiKey(address, id, now) {
      return s.revokeApiKey.run(now, id.toLowerCase(), address.toLowerCase()).changes > 0;
    },
    // Every authenticated request touches its key: batched with the sends into one commit.
    // Awaiting it costs the caller a commit; a request handler may let it run unawaited (with a catch).
    touchApiKey(id, now) {
      return commit.run(() => {
        s.touchApiKey.run(now, id.toLowerCase());
      });
    },
  };
}
