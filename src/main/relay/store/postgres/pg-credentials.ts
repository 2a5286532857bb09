import type { CredentialsPart } from '../store-parts.js';
import { isUniqueViolation, type PgSql, type PgTx } from './pg-client.js';
import { tooManyKeys } from '../limit-refusals.js';
import { MAX_DEVICES, StoreError, type ApiKeyRow, type DeviceRow } from '../store.js';

export const PG_DEVICE_COLUMNS = `public_key AS "publicKey", address, certificate, created_at AS "createdAt", revoked_at AS "revokedAt"`;
const API_KEY_COLUMNS = `id, address, label, prefix, device_key AS "deviceKey", created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

/** Devices and API keys: what identifies a caller (PostgreSQL). */
export function pgCredentialsPart(sql: PgSql): CredentialsPart {
  const cols = sql.unsafe(API_KEY_COLUMNS);
  const touches = new TouchBatch(sql);
  return {
    async addDevice(d) {
      const publicKey = d.publicKey.toLowerCase();
      const address = d.address.toLowerCase();
      await sql.begin(async (tx) => {
        await tx`INSERT INTO accounts (address) VALUES (${address}) ON CONFLICT (address) DO NOTHING`;
        // The account row is locked for the count, so two nodes cannot both add the 16th device.
        await tx`SELECT 1 FROM accounts WHERE address = ${address} FOR UPDATE`;
        await registerDevice(tx, { publicKey, address, certificate: d.certificate, now: d.now });
      });
      return { publicKey, address, certificate: d.certificate, createdAt: d.now, revokedAt: null };
    },
    async listDevices(address) {
      return sql<
        DeviceRow[]
      >`SELECT ${sql.unsafe(PG_DEVICE_COLUMNS)} FROM devices WHERE address = ${address.toLowerCase()} AND revoked_at IS NULL ORDER BY created_at, seq`;
    },
    async revokeDevice(address, publicKey, now) {
      const a = address.toLowerCase();
      const k = publicKey.toLowerCase();
      return sql.begin(async (tx) => {
        const done =
          await tx`UPDATE devices SET revoked_at = ${now} WHERE public_key = ${k} AND address = ${a} AND revoked_at IS NULL`;
        if (done.count === 0) return false;
        await tx`UPDATE api_keys SET revoked_at = ${now} WHERE device_key = ${k} AND revoked_at IS NULL`;
        await tx`DELETE FROM envelopes WHERE recipient = ${a} AND device_key = ${k}`;
        return true;
      });
    },
    async insertApiKey(k, maxActive = Infinity, device) {
      const address = k.address.toLowerCase();
      const deviceKey = k.deviceKey?.toLowerCase() ?? null;
      const insert = (tx: PgTx) =>
        tx`INSERT INTO api_keys (id, address, hash, label, prefix, device_key, created_at, last_used_at, revoked_at)
           VALUES (${k.id.toLowerCase()}, ${address}, ${k.hash}, ${k.label}, ${k.prefix}, ${deviceKey}, ${k.createdAt}, ${k.lastUsedAt}, ${k.revokedAt})`;
      if (!Number.isFinite(maxActive) && !device) {
        await sql.begin((tx) => [
          tx`INSERT INTO accounts (address) VALUES (${address}) ON CONFLICT (address) DO NOTHING`,
          insert(tx),
        ]);
        return;
      }
      await sql.begin(async (tx) => {
        await tx`INSERT INTO accounts (address) VALUES (${address}) ON CONFLICT (address) DO NOTHING`;
        // The account row is locked for the counts, so two nodes cannot both mint the last key (or add the 16th device) allowed.
        await tx`SELECT 1 FROM accounts WHERE address = ${address} FOR UPDATE`;
        if (Number.isFinite(maxActive)) {
          const [{ n }] = await tx<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM api_keys WHERE address = ${address} AND revoked_at IS NULL`;
          if (n >= maxActive) throw tooManyKeys(maxActive);
        }
        if (device && deviceKey) {
          const [current] =
            await tx`SELECT 1 FROM devices WHERE public_key = ${deviceKey} AND address = ${address} AND revoked_at IS NULL`;
          if (!current)
            await registerDevice(tx, {
              publicKey: deviceKey,
              address,
              certificate: device.certificate,
              now: k.createdAt,
            });
        }
        await insert(tx);
      });
    },
    async findApiKeyByHash(hash) {
      const [r] = await sql<(ApiKeyRow & { hash: Buffer })[]>`SELECT ${cols}, hash FROM api_keys WHERE hash = ${hash}`;
      return r ?? null;
    },
    async listApiKeys(address) {
      return sql<
        ApiKeyRow[]
      >`SELECT ${cols} FROM api_keys WHERE address = ${address.toLowerCase()} ORDER BY created_at, seq`;
    },
    async revokeApiKey(address, id, now) {
      // Revoking twice keeps the first time.
      const done =
        await sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${now}) WHERE id = ${id.toLowerCase()} AND address = ${address.toLowerCase()}`;
      return done.count > 0;
    },
    touchApiKey(id, now) {
      return touches.add(id.toLowerCase(), now);
    },
  };
}

/**
 * Every authenticated request touches its key: the touches of one turn of the event loop go
 * out as one UPDATE over unnest, and a lost touch costs nothing but a stale "last used", so it
 * skips the wait for the commit to reach the disk.
 */
class TouchBatch {
  #pending = new Map<string, number>();
  #flushing: Promise<void> | null = null;

  constructor(private readonly sql: PgSql) {}

  add(id: string, now: number): Promise<void> {
    this.#pending.set(id, Math.max(now, this.#pending.get(id) ?? 0));
    this.#flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#flush());
    return this.#flushing;
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = new Map();
    this.#flushing = null;
    await this.sql.begin((tx) => [
      tx`SET LOCAL synchronous_commit = off`,
      tx`UPDATE api_keys k SET last_used_at = greatest(coalesce(k.last_used_at, 0), t.at)
         FROM unnest(${[...batch.keys()]}::text[], ${[...batch.values()]}::bigint[]) AS t(id, at) WHERE k.id = t.id`,
    ]);
  }
}

/** Adds a device inside `tx`, which holds the account row's lock (the count is then exact across nodes). */
async function registerDevice(
  tx: PgTx,
  d: { publicKey: string; address: string; certificate: string; now: number },
): Promise<void> {
  const [{ n }] = await tx<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM devices WHERE address = ${d.address} AND revoked_at IS NULL`;
  if (n >= MAX_DEVICES)
    throw new StoreError(
      'too-many-devices',
      `a wallet can have at most ${MAX_DEVICES} current devices; revoke one first`,
    );
  try {
    await tx.savepoint(
      (sp) =>
        sp`INSERT INTO devices (public_key, address, certificate, created_at) VALUES (${d.publicKey}, ${d.address}, ${d.certificate}, ${d.now})`,
    );
  } catch (e) {
    if (isUniqueViolation(e)) throw new StoreError('device-exists', 'device key is already registered');
    throw e;
  }
}
