import { FormattedMessage, useIntl } from 'react-intl';
import { useState } from 'react';
import { FormError } from '../components/form-error.js';
import { WelcomeCard } from '../onboarding/welcome-card.js';
import { useStore } from '../store.js';
import { useAction } from './use-action.js';

/** The returning user's one screen: the passphrase, before anything else shows. */
export function Unlock() {
  const unlockWallet = useStore((s) => s.unlockWallet);
  const address = useStore((s) => s.status?.address);
  const action = useAction(unlockWallet);
  const [passphrase, setPassphrase] = useState('');
  const intl = useIntl();
  return (
    <WelcomeCard icon="lock" narrow>
      <h1>
        <FormattedMessage
          id="unlock.title"
          defaultMessage="Unlock"
          description="Heading of the screen that asks for the passphrase at start."
        />
      </h1>
      <p className="lead">
        {address ? (
          <FormattedMessage
            id="unlock.lead"
            defaultMessage="Enter the passphrase for <code>{address}</code>."
            description="Asks for the passphrase of the wallet with this address; keep the code tags."
            values={{
              address,
              code: (chunks) => (
                <code className="inline-code" dir="ltr">
                  {chunks}
                </code>
              ),
            }}
          />
        ) : (
          intl.formatMessage({
            id: 'unlock.leadNoAddress',
            defaultMessage: 'Enter your passphrase.',
            description: 'Asks for the passphrase when the address is not known.',
          })
        )}
      </p>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(passphrase);
        }}
      >
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="unlock.passphrase"
              defaultMessage="Passphrase"
              description="Label of the passphrase field."
            />
          </span>
          <input
            type="password"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
            autoFocus
            autoComplete="current-password"
          />
        </label>
        <FormError error={action.error} />
        <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy}>
          {action.busy
            ? intl.formatMessage({
                id: 'unlock.unlocking',
                defaultMessage: 'Unlocking…',
                description: 'Unlock button while unlocking.',
              })
            : intl.formatMessage({
                id: 'unlock.submit',
                defaultMessage: 'Unlock',
                description: 'Button that unlocks the wallet.',
              })}
        </button>
      </form>
    </WelcomeCard>
  );
}
