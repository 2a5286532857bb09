import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { useEffect } from 'react';
import type { DeviceNotice } from '../../shared/trust.js';
import { Icon } from '../components/icon.js';
import { fullTime } from '../i18n/format.js';
import { isolate } from '../i18n/isolate.js';
import { useStore } from '../store.js';

function noticeText(intl: IntlShape, n: DeviceNotice, who: string): string {
  const values = { who: isolate(who, intl), when: fullTime(n.at, intl) };
  return n.change === 'added'
    ? intl.formatMessage(
        {
          id: 'deviceNotices.added',
          defaultMessage: '{who} added a new device on {when}.',
          description: 'A contact added a device; who is their name, when a date and time.',
        },
        values,
      )
    : intl.formatMessage(
        {
          id: 'deviceNotices.removed',
          defaultMessage: '{who} removed a device (noticed {when}).',
          description: 'A contact removed a device.',
        },
        values,
      );
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
  const intl = useIntl();
  if (shown.length === 0) return null;
  return (
    <div className="device-notices">
      <ul
        className="plain-list"
        aria-label={intl.formatMessage({
          id: 'deviceNotices.label',
          defaultMessage: 'Device changes',
          description: 'Accessible name of the list of a contact’s device changes.',
        })}
      >
        {shown.map((n) => (
          <li key={n.id} className="device-notice">
            <Icon name="shield" size={14} /> {noticeText(intl, n, name)}
          </li>
        ))}
      </ul>
      {trust?.changed && (
        <span className="small">
          <FormattedMessage
            id="deviceNotices.unverified"
            defaultMessage="You had verified {name}: the mark was removed."
            description="After a verified contact’s devices changed."
            values={{ name: <bdi>{name}</bdi> }}
          />
        </span>
      )}
      <button type="button" className="btn btn-link btn-sm" onClick={() => openVerify(a)}>
        <FormattedMessage
          id="deviceNotices.verify"
          defaultMessage="Verify safety number"
          description="Button that opens the safety number check."
        />
      </button>
    </div>
  );
}
