import { useIntl } from 'react-intl';
import { WelcomeCard } from './welcome-card.js';
import { useStore } from '../store.js';
import { RestoreBackup } from '../backup/restore-backup.js';
import { Welcome } from './welcome.js';
import { ShowPhrase } from './show-phrase.js';
import { ConfirmPhrase } from './confirm-phrase.js';
import { ImportWallet } from './import-wallet.js';
import { ChooseRelay } from './choose-relay.js';
import { ClaimHandle } from './claim-handle.js';

/** The first start, step by step: a wallet made, imported or restored from a backup, then a relay and a handle. */
export function Onboarding() {
  const step = useStore((s) => s.onboarding?.step ?? 'welcome');
  return (
    <WelcomeCard icon="chat">
      {step === 'welcome' && <Welcome />}
      {step === 'create-phrase' && <ShowPhrase />}
      {step === 'create-confirm' && <ConfirmPhrase />}
      {step === 'import' && <ImportWallet />}
      {step === 'restore' && <RestoreStep />}
      {step === 'relay' && <ChooseRelay />}
      {step === 'handle' && <ClaimHandle />}
      <Steps step={step} />
    </WelcomeCard>
  );
}

function Steps({ step }: { step: string }) {
  const order = ['welcome', 'phrase', 'relay', 'handle'];
  const intl = useIntl();
  const at =
    step === 'create-phrase' || step === 'create-confirm' || step === 'import' || step === 'restore'
      ? 1
      : Math.max(0, order.indexOf(step));
  return (
    <ol
      className="steps"
      aria-label={intl.formatMessage({
        id: 'onboarding.steps.label',
        defaultMessage: 'Setup progress',
        description: 'Accessible name of the list of setup steps.',
      })}
    >
      {[
        intl.formatMessage({
          id: 'onboarding.steps.wallet',
          defaultMessage: 'Wallet',
          description: 'Setup step 1: make or import a wallet.',
        }),
        intl.formatMessage({
          id: 'onboarding.steps.recovery',
          defaultMessage: 'Recovery',
          description: 'Setup step 2: the recovery phrase.',
        }),
        intl.formatMessage({
          id: 'onboarding.steps.relay',
          defaultMessage: 'Relay',
          description: 'Setup step 3: choose a relay.',
        }),
        intl.formatMessage({
          id: 'onboarding.steps.handle',
          defaultMessage: 'Handle',
          description: 'Setup step 4: pick a handle (a public name).',
        }),
      ].map((label, i) => (
        <li
          key={label}
          className={i < at ? 'done' : i === at ? 'current' : ''}
          aria-current={i === at ? 'step' : undefined}
        >
          {label}
        </li>
      ))}
    </ol>
  );
}

function RestoreStep() {
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  return <RestoreBackup onDone={() => goToOnboardingStep('relay')} />;
}
