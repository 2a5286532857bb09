/**
 * What the client keeps for safety numbers (migration 7): each wallet's certified device set
 * as last seen, the verified mark with the set it was made against, and the device notices.
 * Its statements are prepared once, on the local store's connection.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { DeviceNotice } from '../../../shared/trust.js';

export interface DeviceSetRow {
  /** sorted device keys as last seen */
  devices: string[];
  /** the contact's keys when the person verified the safety number; null when not verified */
  verifiedDevices: string[] | null;
  verifiedMs: number | null;
  /** changed since verified: ask before the next message */
  changePending: boolean;
}

export const TRUST_STORE_SQL = {
  getSet: 'SELECT devices, verified_devices, verified_ms, change_pending FROM device_sets WHERE address = ?',
  upsertSet: `INSERT INTO device_sets (address, devices, updated_ms) VALUES (@address, @devices, @now)
    ON CONFLICT (address) DO UPDATE SET devices = excluded.devices, updated_ms = excluded.updated_ms`,
  // a verified contact whose set changed: the mark goes, and the next send asks first
  dropVerified:
    'UPDATE device_sets SET verified_devices = NULL, verified_ms = NULL, change_pending = 1 WHERE address = ? AND verified_devices IS NOT NULL',
  setVerified: 'UPDATE device_sets SET verified_devices = ?, verified_ms = ?, change_pending = 0 WHERE address = ?',
  insertNotice: 'INSERT INTO device_notices (address, change, device_key, at, noticed_ms) VALUES (?, ?, ?, ?, ?)',
  notices: 'SELECT id, address, change, device_key, at FROM device_notices WHERE address = ? ORDER BY id DESC LIMIT ?',
} as const;

interface NoticeRowDb {
  id: number;
  address: string;
  change: 'added' | 'removed';
  device_key: string;
  at: string;
}

export class TrustStore {
  private readonly s: Record<keyof typeof TRUST_STORE_SQL, Statement>;
  private readonly recordTx: (
    address: string,
    devices: string[],
    notices: Array<Omit<DeviceNotice, 'id' | 'address'>>,
    nowMs: number,
  ) => DeviceNotice[];

  constructor(private readonly db: Database.Database) {
    this.s = Object.fromEntries(
      Object.entries(TRUST_STORE_SQL).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Record<keyof typeof TRUST_STORE_SQL, Statement>;
    this.recordTx = db.transaction(
      (address: string, devices: string[], notices: Array<Omit<DeviceNotice, 'id' | 'address'>>, nowMs: number) => {
        this.s.upsertSet.run({ address, devices: JSON.stringify(devices), now: nowMs });
        if (notices.length > 0) this.s.dropVerified.run(address);
        return notices.map((n) => {
          const id = Number(this.s.insertNotice.run(address, n.change, n.deviceKey, n.at, nowMs).lastInsertRowid);
          return { id, address, ...n };
        });
      },
    );
  }

  deviceSet(address: string): DeviceSetRow | null {
    const r = this.s.getSet.get(address) as
      | { devices: string; verified_devices: string | null; verified_ms: number | null; change_pending: number }
      | undefined;
    if (!r) return null;
    return {
      devices: JSON.parse(r.devices) as string[],
      verifiedDevices: r.verified_devices === null ? null : (JSON.parse(r.verified_devices) as string[]),
      verifiedMs: r.verified_ms,
      changePending: r.change_pending === 1,
    };
  }

  /**
   * Stores the set just seen and, in the same transaction, its notices; any notice drops the
   * verified mark (a first sighting has none). Returns the notices as stored.
   */
  recordDevices(
    address: string,
    devices: string[],
    notices: Array<Omit<DeviceNotice, 'id' | 'address'>>,
    nowMs: number,
  ): DeviceNotice[] {
    return this.recordTx(address, devices, notices, nowMs);
  }

  /** Marks (a set) or unmarks (null) the contact verified; either way the pending question is answered. */
  setVerified(address: string, devices: string[] | null, nowMs: number): void {
    this.s.setVerified.run(devices === null ? null : JSON.stringify(devices), devices === null ? null : nowMs, address);
  }

  /** Newest first. */
  notices(address: string, limit = 20): DeviceNotice[] {
    return (this.s.notices.all(address, limit) as NoticeRowDb[]).map((r) => ({
      id: r.id,
      address: r.address,
      change: r.change,
      deviceKey: r.device_key,
      at: r.at,
    }));
  }
}
