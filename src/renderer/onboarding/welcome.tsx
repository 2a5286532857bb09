import { FormattedMessage, useIntl } from 'react-intl';
import { Icon } from '../components/icon.js';
import { FormError } from '../components/form-error.js';
import { LanguagePicker } from '../i18n/language-picker.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { PassphraseField } from './passphrase-field.js';

/** The first step: make a new wallet (with a passphrase where there is no keychain), or go and import one. */
export function Welcome() {
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const createWallet = useStore((s) => s.createWallet);
  const passphrase = useStore((s) => s.onboarding?.passphrase ?? '');
  const setPassphrase = useStore((s) => s.setOnboardingPassphrase);
  const action = useAction(createWallet);
  const intl = useIntl();
  return (
    <section aria-labelledby="welcome-title">
      <h1 id="welcome-title">
        <FormattedMessage
          id="onboarding.welcome.title"
          defaultMessage="Private messages, owned by your wallet"
          description="Heading of the first screen of the app."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.welcome.lead"
          defaultMessage="Your address is your identity. Messages are sealed on this device before they leave it; the relay only ever carries ciphertext."
          description="Introduction on the first screen."
        />
      </p>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(passphrase);
        }}
      >
        <PassphraseField value={passphrase} onChange={setPassphrase} />
        <FormError error={action.error} />
        <div className="row">
          <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy}>
            <Icon name="plus" />{' '}
            {action.busy
              ? intl.formatMessage({
                  id: 'onboarding.welcome.creating',
                  defaultMessage: 'Creating…',
                  description: 'Create button while the wallet is being made.',
                })
              : intl.formatMessage({
                  id: 'onboarding.welcome.create',
                  defaultMessage: 'Create a new wallet',
                  description: 'Button that makes a new wallet.',
                })}
          </button>
          <button type="button" className="btn btn-secondary btn-lg" onClick={() => goToOnboardingStep('import')}>
            <FormattedMessage
              id="onboarding.welcome.import"
              defaultMessage="I already have a wallet"
              description="Button that leads to importing an existing wallet."
            />
          </button>
        </div>
      </form>
      <LanguagePicker className="field narrow-field welcome-language" />
    </section>
  );
}
