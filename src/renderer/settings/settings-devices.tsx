import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { listTime, shortAddress } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { HistoryTransfer } from '../backup/history-transfer.js';
import { OwnDeviceNotices } from '../trust/own-device-notices.js';

export function SettingsDevices() {
  const devices = useStore((s) => s.settings.devices);
  const address = useStore((s) => s.status?.address ?? null);
  const revokeDevice = useStore((s) => s.revokeDevice);
  const action = useAction(revokeDevice);
  const [confirming, setConfirming] = useState<string | null>(null);
  const intl = useIntl();
  return (
    <section className="card section" aria-labelledby="devices-title">
      <h2 id="devices-title">
        <FormattedMessage
          id="settings.devices.title"
          defaultMessage="Devices"
          description="Settings section listing this wallet’s devices."
        />
      </h2>
      <p className="subtle small">
        <FormattedMessage
          id="settings.devices.lead"
          defaultMessage="Each device has its own encryption key, certified by your wallet. Revoke a device you no longer use: it is signed out of the relay, its waiting messages are deleted and it receives nothing new."
          description="Explains devices and revoking."
        />
      </p>
      <p className="note warn-note small" id="revoke-limits">
        <Icon name="alert" size={16} />
        <span>
          <FormattedMessage
            id="settings.devices.revokeLimits"
            defaultMessage="Revoking does not take your wallet away from that device. Every installation holds your wallet key, so a revoked one can sign in again as you. If a device was lost or stolen, move to a new wallet and tell your contacts your new address."
            description="Warning about what revoking a device cannot do."
          />
        </span>
      </p>
      <KeychainNote />
      {address && <OwnDeviceNotices address={address} />}
      <HistoryTransfer />
      <ul
        className="plain-list"
        aria-label={intl.formatMessage({
          id: 'settings.devices.list',
          defaultMessage: 'Devices',
          description: 'Accessible name of the list of devices.',
        })}
      >
        {devices.map((d) => (
          <li key={d.publicKey} className="device-row">
            <Icon name={d.current ? 'laptop' : 'key'} size={18} />
            <div className="grow">
              <div>
                <code className="inline-code" dir="ltr">
                  {shortAddress(d.publicKey)}
                </code>{' '}
                {d.current && (
                  <span className="pill">
                    <FormattedMessage
                      id="settings.devices.thisDevice"
                      defaultMessage="This device"
                      description="Tag on the device the app runs on."
                    />
                  </span>
                )}
              </div>
              <div className="subtle small">
                <FormattedMessage
                  id="settings.devices.added"
                  defaultMessage="Added {when}"
                  description="When a device was added; when is a short time or date."
                  values={{ when: listTime(d.createdAt, intl) }}
                />
              </div>
            </div>
            {!d.current && confirming !== d.publicKey && (
              <button
                type="button"
                className="btn btn-danger-ghost btn-sm"
                onClick={() => setConfirming(d.publicKey)}
                aria-label={intl.formatMessage(
                  {
                    id: 'settings.devices.revokeLabel',
                    defaultMessage: 'Revoke device {key}',
                    description: 'Accessible name of a device’s Revoke button; key is the start of its key.',
                  },
                  { key: d.publicKey.slice(0, 8) },
                )}
              >
                <FormattedMessage
                  id="settings.devices.revoke"
                  defaultMessage="Revoke"
                  description="Button that starts revoking a device."
                />
              </button>
            )}
            {!d.current && confirming === d.publicKey && (
              // Revoking cannot be undone: the device is signed out and stops receiving at once.
              <div
                className="row"
                role="group"
                aria-label={intl.formatMessage(
                  {
                    id: 'settings.devices.confirmLabel',
                    defaultMessage: 'Confirm revoking device {key}',
                    description: 'Accessible name of the confirmation; key is the start of its key.',
                  },
                  { key: d.publicKey.slice(0, 8) },
                )}
              >
                <span className="small">
                  <FormattedMessage
                    id="settings.devices.confirm"
                    defaultMessage="Sign it out for good?"
                    description="Question before revoking a device."
                  />
                </span>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirming(null)}>
                  <FormattedMessage
                    id="settings.devices.cancel"
                    defaultMessage="Cancel"
                    description="Button that keeps the device."
                  />
                </button>
                <button
                  type="button"
                  className="btn btn-danger btn-sm"
                  disabled={action.busy}
                  onClick={async () => {
                    if ((await action.run(d.publicKey)).ok) setConfirming(null);
                  }}
                >
                  <FormattedMessage
                    id="settings.devices.revokeConfirm"
                    defaultMessage="Revoke device"
                    description="Button that revokes the device for good."
                  />
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <FormError error={action.error} />
    </section>
  );
}

/** Why the desktop app asks for a passphrase on this computer, or how weak its keychain protection is. */
function KeychainNote() {
  const status = useStore((s) => s.status);
  if (status?.keychainRefused !== 'basic_text') return null;
  if (status.keychain)
    return (
      <p className="note warn-note small" role="note">
        <Icon name="alert" size={16} />
        <span>
          <FormattedMessage
            id="settings.keychain.weak"
            defaultMessage="This computer has no secret store (such as GNOME Keyring or KWallet), so the key that locks your wallet here is protected only by a password built into the app. Anyone who can read your files can open it. Install a secret store, or move to a new wallet protected by a passphrase."
            description="Warning on Linux desktops without a keyring, when the wallet has no passphrase."
          />
        </span>
      </p>
    );
  return (
    <p className="note small" role="note">
      <Icon name="shield" size={16} />
      <span>
        <FormattedMessage
          id="settings.keychain.passphrase"
          defaultMessage="Your passphrase protects the wallet on this computer: it has no secret store (such as GNOME Keyring or KWallet), and the fallback would be a password built into the app."
          description="Note on Linux desktops without a keyring, when a passphrase protects the wallet."
        />
      </span>
    </p>
  );
}
