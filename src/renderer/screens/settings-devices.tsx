import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { SecretKeyList } from '../components/secret-key-list.js';
import { listTime, shortAddress } from '../format.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';
import { HistoryTransfer } from './history-transfer.js';
import { OwnDeviceNotices } from './own-device-notices.js';

export function Devices() {
  const devices = useStore((s) => s.settings.devices);
  const address = useStore((s) => s.status?.address ?? null);
  const revokeDevice = useStore((s) => s.revokeDevice);
  const action = useAction(revokeDevice);
  const [confirming, setConfirming] = useState<string | null>(null);
  const intl = useIntl();
  return (
    <section className="card section" aria-labelledby="devices-title">
      <h2 id="devices-title">
        <FormattedMessage id="settings.devices.title" defaultMessage="Devices" description="Settings section listing this wallet’s devices." />
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
      <ul className="plain-list" aria-label={intl.formatMessage({ id: 'settings.devices.list', defaultMessage: 'Devices', description: 'Accessible name of the list of devices.' })}>
        {devices.map((d) => (
          <li key={d.publicKey} className="device-row">
            <Icon name={d.current ? 'laptop' : 'key'} size={18} />
            <div className="grow">
              <div>
                <code className="inline-code" dir="ltr">
                  {shortAddress(d.publicKey)}
                </code> {d.current && (
                  <span className="pill">
                    <FormattedMessage id="settings.devices.thisDevice" defaultMessage="This device" description="Tag on the device the app runs on." />
                  </span>
                )}
              </div>
              <div className="subtle small">
                <FormattedMessage id="settings.devices.added" defaultMessage="Added {when}" description="When a device was added; when is a short time or date." values={{ when: listTime(d.createdAt, undefined, intl) }} />
              </div>
            </div>
            {!d.current && confirming !== d.publicKey && (
              <button
                type="button"
                className="btn btn-danger-ghost btn-sm"
                onClick={() => setConfirming(d.publicKey)}
                aria-label={intl.formatMessage({ id: 'settings.devices.revokeLabel', defaultMessage: 'Revoke device {key}', description: 'Accessible name of a device’s Revoke button; key is the start of its key.' }, { key: d.publicKey.slice(0, 8) })}
              >
                <FormattedMessage id="settings.devices.revoke" defaultMessage="Revoke" description="Button that starts revoking a device." />
              </button>
            )}
            {!d.current && confirming === d.publicKey && (
              // Revoking cannot be undone: the device is signed out and stops receiving at once.
              <div
                className="row"
                role="group"
                aria-label={intl.formatMessage({ id: 'settings.devices.confirmLabel', defaultMessage: 'Confirm revoking device {key}', description: 'Accessible name of the confirmation; key is the start of its key.' }, { key: d.publicKey.slice(0, 8) })}
              >
                <span className="small">
                  <FormattedMessage id="settings.devices.confirm" defaultMessage="Sign it out for good?" description="Question before revoking a device." />
                </span>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirming(null)}>
                  <FormattedMessage id="settings.devices.cancel" defaultMessage="Cancel" description="Button that keeps the device." />
                </button>
                <button
                  type="button"
                  className="btn btn-danger btn-sm"
                  disabled={action.busy}
                  onClick={async () => {
                    if ((await action.run(d.publicKey)).ok) setConfirming(null);
                  }}
                >
                  <FormattedMessage id="settings.devices.revokeConfirm" defaultMessage="Revoke device" description="Button that revokes the device for good." />
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

export function ApiKeys() {
  const keys = useStore((s) => s.settings.apiKeys);
  const myDevice = useStore((s) => s.status?.deviceKey?.toLowerCase() ?? null);
  const mintApiKey = useStore((s) => s.mintApiKey);
  const revokeApiKey = useStore((s) => s.revokeApiKey);
  const intl = useIntl();
  const thisDevice = intl.formatMessage({ id: 'settings.apiKeys.thisDevice', defaultMessage: 'This device', description: 'Tag on the API key this device uses.' });
  const signIn = intl.formatMessage({ id: 'settings.apiKeys.deviceSignIn', defaultMessage: 'device sign-in', description: 'Name of the key a device signs in to the relay with.' });
  const device = intl.formatMessage({ id: 'settings.apiKeys.device', defaultMessage: 'Device', description: 'Tag on an API key that belongs to another device.' });
  return (
    <section className="card section" aria-labelledby="keys-title">
      <h2 id="keys-title">
        <FormattedMessage id="settings.apiKeys.title" defaultMessage="API keys" description="Settings section of developer API keys." />
      </h2>
      <p className="subtle small">
        <FormattedMessage id="settings.apiKeys.lead" defaultMessage="For scripts and integrations that act as you on the relay. Treat a key like a password." description="Explains API keys." />
      </p>
      <SecretKeyList
        what={intl.formatMessage({ id: 'settings.apiKeys.what', defaultMessage: 'API key', description: 'What one key is called inside sentences such as “Copy this API key now”.' })}
        listLabel={intl.formatMessage({ id: 'settings.apiKeys.list', defaultMessage: 'API keys', description: 'Accessible name of the list of API keys.' })}
        icon="key"
        items={keys.map((k) => {
          const mine = k.deviceKey?.toLowerCase() === myDevice;
          // This device's own key is how the app talks to the relay: revoke the device instead.
          // a device's own key is named by main ("device sign-in"): said in the person's language
          const name = k.deviceKey ? signIn : k.label;
          return { ...k, name, tag: k.deviceKey ? (mine ? thisDevice : device) : undefined, revocable: !mine };
        })}
        nameLabel={intl.formatMessage({ id: 'settings.apiKeys.nameLabel', defaultMessage: 'Key label', description: 'Label of the name field for a new API key.' })}
        placeholder={intl.formatMessage({ id: 'settings.apiKeys.placeholder', defaultMessage: 'CI notifier', description: 'Example name of an API key (placeholder).' })}
        nameRequired={false}
        mintLabel={intl.formatMessage({ id: 'settings.apiKeys.create', defaultMessage: 'Create key', description: 'Button that makes a new API key.' })}
        mintIcon="plus"
        emptyText={intl.formatMessage({ id: 'settings.apiKeys.empty', defaultMessage: 'No API keys yet.', description: 'Shown when there are no API keys.' })}
        onMint={mintApiKey}
        onRevoke={revokeApiKey}
      />
    </section>
  );
}
