import { useEffect } from 'react';
import type { DeviceNotice } from '../../shared/trust.js';
import { Icon } from '../components/icon.js';
import { fullTime } from '../format.js';
import { useStore } from '../store/store.js';

function noticeText(n: DeviceNotice, who: string): string {
  return n.change === 'added' ? `${who} added a new device on ${fullTime(n.at)}.` : `${who} removed a device (noticed ${fullTime(n.at)}).`;
}

/** The conversation's device notices, newest last, under its header. */
export function DeviceNotices({ address, name }: { address: string; name: string }) {
  const a = address.toLowerCase();
  const trust = useStore((s) => s.trustByAddress[a]);
  const loadTrust = useStore((s) => s.loadTrust);
  const openVerify = useStore((s) => s.openVerify);
  useEffect(() => {
    void loadTrust(a).catch(() => undefined);
  }, [a, loadTrust]);
  const shown = (trust?.notices ?? []).slice(0, 3).reverse();
  if (shown.length === 0) return null;
  return (
    <div className="device-notices">
      <ul className="plain-list" aria-label="Device changes">
        {shown.map((n) => (
          <li key={n.id} className="device-notice">
            <Icon name="shield" size={14} /> {noticeText(n, name)}
          </li>
        ))}
      </ul>
      {trust?.changed && <span className="small">You had verified {name}: the mark was removed.</span>}
      <button type="button" className="btn btn-link btn-sm" onClick={() => openVerify(a)}>
        Verify safety number
      </button>
    </div>
  );
}
