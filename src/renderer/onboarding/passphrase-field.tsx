import { FormattedMessage, useIntl } from 'react-intl';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';

/** The OS keychain protects the wallet in the desktop app; elsewhere a passphrase does. */
export function PassphraseField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const keychain = useStore((s) => s.status?.keychain === true);
  const noSecretStore = useStore((s) => s.status?.keychainRefused === 'basic_text');
  const intl = useIntl();
  const passLabel = intl.formatMessage({
    id: 'onboarding.passphrase.label',
    defaultMessage: 'Passphrase for this computer (recommended)',
    description: 'Label of the passphrase that locks the wallet on this computer.',
  });
  if (keychain)
    return (
      <p className="note">
        <Icon name="shield" size={16} />{' '}
        <FormattedMessage
          id="onboarding.passphrase.keychain"
          defaultMessage="Your system keychain protects the wallet on this computer."
          description="Note when the OS keychain protects the wallet, so no passphrase is asked."
        />
      </p>
    );
  return (
    <>
      {noSecretStore && (
        <p className="note" role="note">
          <Icon name="shield" size={16} />{' '}
          <FormattedMessage
            id="onboarding.passphrase.noSecretStore"
            defaultMessage="This computer has no secret store (such as GNOME Keyring or KWallet), so the system keychain would protect your wallet only with a password built into the app. Choose a passphrase instead."
            description="Note on Linux desktops without a keyring service."
          />
        </p>
      )}
      <label className="field">
        <span className="field-label">{passLabel}</span>
        <input
          type="password"
          aria-label={passLabel}
          aria-describedby="passphrase-hint"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="new-password"
        />
        <span className="field-hint" id="passphrase-hint">
          <FormattedMessage
            id="onboarding.passphrase.hint"
            defaultMessage="Asked when the app starts. Without one, anyone who can read this computer’s files can open your wallet."
            description="Hint under the passphrase field."
          />
        </span>
      </label>
    </>
  );
}
