import { useIntl, type IntlShape } from 'react-intl';
import { useEffect } from 'react';
import type { DeviceNotice } from '../../shared/trust.js';
import { Icon } from '../components/icon.js';
import { fullTime, shortAddress } from '../i18n/format.js';
import { isolate } from '../i18n/isolate.js';
import { useStore } from '../store.js';

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
  const intl = useIntl();
  if (lines.length === 0) return null;
  const listed = new Set(devices.map((d) => d.publicKey.toLowerCase()));
  return (
    <ul
      className="plain-list own-device-notices"
      aria-label={intl.formatMessage({
        id: 'ownDevices.label',
        defaultMessage: 'Changes to your devices',
        description: 'Accessible name of the list of changes to one’s own devices.',
      })}
    >
      {lines.map((n) => (
        <li key={n.id} className="note small">
          <Icon name={n.change === 'added' ? 'alert' : 'key'} size={16} />
          {/* an empty list is one not loaded yet (this device is always on it) */}
          <span>{noticeText(intl, n, devices.length === 0 || listed.has(n.deviceKey.toLowerCase()))}</span>
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
function noticeText(intl: IntlShape, n: DeviceNotice, listed: boolean): string {
  const values = { key: isolate(shortAddress(n.deviceKey), intl), when: fullTime(n.at, intl) };
  if (n.change === 'removed')
    return intl.formatMessage(
      {
        id: 'ownDevices.removed',
        defaultMessage: 'Your device {key} was removed (noticed {when}).',
        description: 'One of your devices was removed; key is the start of its key, when a date and time.',
      },
      values,
    );
  if (!listed)
    return intl.formatMessage(
      {
        id: 'ownDevices.addedGone',
        defaultMessage: 'A new device of yours ({key}) was added on {when}; it has since been removed.',
        description: 'A device was added and removed again.',
      },
      values,
    );
  return intl.formatMessage(
    {
      id: 'ownDevices.added',
      defaultMessage: 'A new device of yours ({key}) was added on {when}. If that was not you, revoke it below.',
      description: 'A device was added to your wallet.',
    },
    values,
  );
}
