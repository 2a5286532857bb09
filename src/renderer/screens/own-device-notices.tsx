import { useEffect } from 'react';
import type { DeviceNotice } from '../../shared/trust.js';
import { Icon } from '../components/icon.js';
import { fullTime, shortAddress } from '../format.js';
import { useStore } from '../store/store.js';

/** Settings: new and removed devices of one's own wallet. */
export function OwnDeviceNotices({ address }: { address: string }) {
  const a = address.toLowerCase();
  // the object itself: a fresh [] from a selector would re-render without end
  const trust = useStore((s) => s.trustByAddress[a]);
  const notices = trust?.notices ?? [];
  const loadTrust = useStore((s) => s.loadTrust);
  const devices = useStore((s) => s.settings.devices);
  // the device list was just fetched (which records changes): read the notices after it
  useEffect(() => {
    void loadTrust(a).catch(() => undefined);
  }, [a, loadTrust, devices]);
  const lines = latestPerDevice(notices).slice(0, 5);
  if (lines.length === 0) return null;
  const listed = new Set(devices.map((d) => d.publicKey.toLowerCase()));
  return (
    <ul className="plain-list own-device-notices" aria-label="Changes to your devices">
      {lines.map((n) => (
        <li key={n.id} className="note small">
          <Icon name={n.change === 'added' ? 'alert' : 'key'} size={16} />
          {/* an empty list is one not loaded yet (this device is always on it) */}
          <span>{noticeText(n, devices.length === 0 || listed.has(n.deviceKey.toLowerCase()))}</span>
        </li>
      ))}
    </ul>
  );
}

/** One line per device, its newest change (notices come newest first): "removed" replaces "added". */
function latestPerDevice(notices: DeviceNotice[]): DeviceNotice[] {
  const seen = new Set<string>();
  return notices.filter((n) => {
    const k = n.deviceKey.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** "Revoke it below" only while it is below: the device list is what says whether it still is. */
function noticeText(n: DeviceNotice, listed: boolean): string {
  const key = shortAddress(n.deviceKey);
  if (n.change === 'removed') return `Your device ${key} was removed (noticed ${fullTime(n.at)}).`;
  if (!listed) return `A new device of yours (${key}) was added on ${fullTime(n.at)}; it has since been removed.`;
  return `A new device of yours (${key}) was added on ${fullTime(n.at)}. If that was not you, revoke it below.`;
}
