/**
 * Safety numbers and device notices as the app shows them (plain data across the doorway).
 */

/** A contact's safety number, and whether the person marked it verified. */
export interface SafetyNumberInfo {
  address: string;
  /** 60 digits */
  digits: string;
  /** the QR code of `digits`, rows of '1' (dark) and '0', without the quiet zone */
  qr: string[];
  verified: boolean;
  /** when the mark was made (ISO 8601), null when not verified */
  verifiedAt: string | null;
  /** their devices changed after the person verified them: the next message asks first */
  changed: boolean;
  /** how many certified devices each side has now */
  myDevices: number;
  theirDevices: number;
}

/** What the app shows of a contact without computing the number: the mark, a pending change, the notices. */
export interface ContactTrust {
  address: string;
  verified: boolean;
  verifiedAt: string | null;
  /** their devices changed after the person verified them: the next message asks first */
  changed: boolean;
  /** newest first (the last 20) */
  notices: DeviceNotice[];
}

/** "Bob added a new device on …" (or removed one); for one's own address, shown in Settings. */
export interface DeviceNotice {
  id: number;
  address: string;
  change: 'added' | 'removed';
  deviceKey: string;
  /** added: the device's certification time; removed: when this device noticed (ISO 8601) */
  at: string;
}
