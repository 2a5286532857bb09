import { useEffect } from 'react';
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
  if (notices.length === 0) return null;
  return (
    <ul className="plain-list own-device-notices" aria-label="Changes to your devices">
      {notices.slice(0, 5).map((n) => (
        <li key={n.id} className="note small">
          <Icon name={n.change === 'added' ? 'alert' : 'key'} size={16} />
          <span>
            {n.change === 'added' ? `A new device of yours (${shortAddress(n.deviceKey)}) was added on ${fullTime(n.at)}. If that was not you, revoke it below.` : `Your device ${shortAddress(n.deviceKey)} was removed (noticed ${fullTime(n.at)}).`}
          </span>
        </li>
      ))}
    </ul>
  );
}
