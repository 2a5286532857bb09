import { FormattedMessage, useIntl } from 'react-intl';
import { useState } from 'react';
import { Icon } from '../components/icon.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { PassphraseField } from './passphrase-field.js';

/** An existing wallet brought in by its recovery phrase or its private key. */
export function ImportWallet() {
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const importWallet = useStore((s) => s.importWallet);
  const action = useAction(importWallet);
  const [kind, setKind] = useState<'phrase' | 'key'>('phrase');
  const [secret, setSecret] = useState('');
  // typed on the welcome screen, or here: the same one (session-slice.ts)
  const passphrase = useStore((s) => s.onboarding?.passphrase ?? '');
  const setPassphrase = useStore((s) => s.setOnboardingPassphrase);
  const intl = useIntl();
  const phraseLabel = intl.formatMessage({
    id: 'onboarding.import.phrase',
    defaultMessage: 'Recovery phrase',
    description: 'Choice and field label: import with the 12-word recovery phrase.',
  });
  const keyLabel = intl.formatMessage({
    id: 'onboarding.import.key',
    defaultMessage: 'Private key',
    description: 'Choice and field label: import with a private key.',
  });
  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title">
        <FormattedMessage
          id="onboarding.import.title"
          defaultMessage="Import your wallet"
          description="Heading of the import screen."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.import.lead"
          defaultMessage="Your secret stays on this computer. It is never sent to a relay."
          description="Reassurance on the import screen."
        />
      </p>
      <div
        className="segmented"
        role="radiogroup"
        aria-label={intl.formatMessage({
          id: 'onboarding.import.kind',
          defaultMessage: 'What to import',
          description: 'Accessible name of the choice between recovery phrase and private key.',
        })}
      >
        <label className={kind === 'phrase' ? 'active' : ''}>
          <input type="radio" name="import-kind" checked={kind === 'phrase'} onChange={() => setKind('phrase')} />
          {phraseLabel}
        </label>
        <label className={kind === 'key' ? 'active' : ''}>
          <input type="radio" name="import-kind" checked={kind === 'key'} onChange={() => setKind('key')} />
          {keyLabel}
        </label>
      </div>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          const value = secret.trim();
          void action.run(
            kind === 'phrase'
              ? { mnemonic: value.toLowerCase().split(/\s+/).join(' '), passphrase }
              : { privateKey: value, passphrase },
          );
        }}
      >
        {kind === 'phrase' ? (
          <label className="field">
            <span className="field-label">{phraseLabel}</span>
            <textarea
              rows={3}
              dir="ltr"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              placeholder={intl.formatMessage({
                id: 'onboarding.import.phrasePlaceholder',
                defaultMessage: 'twelve words separated by spaces',
                description:
                  'Placeholder of the recovery phrase field (the words themselves are English BIP-39 words).',
              })}
            />
          </label>
        ) : (
          <label className="field">
            <span className="field-label">{keyLabel}</span>
            <input
              type="password"
              dir="ltr"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              spellCheck={false}
              autoComplete="off"
              placeholder={intl.formatMessage({
                id: 'onboarding.import.keyPlaceholder',
                defaultMessage: '64 hex characters, with or without 0x',
                description: 'Placeholder of the private key field.',
              })}
            />
          </label>
        )}
        <PassphraseField value={passphrase} onChange={setPassphrase} />
        <FormError error={action.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={() => goToOnboardingStep('welcome')}>
            <Icon name="arrowLeft" />{' '}
            <FormattedMessage
              id="onboarding.import.back"
              defaultMessage="Back"
              description="Button back to the first screen."
            />
          </button>
          <button
            type="submit"
            className="btn btn-primary btn-lg"
            disabled={action.busy || !secret.trim()}
            aria-describedby={secret.trim() ? undefined : 'import-why'}
          >
            {action.busy
              ? intl.formatMessage({
                  id: 'onboarding.import.importing',
                  defaultMessage: 'Importing…',
                  description: 'Import button while importing.',
                })
              : intl.formatMessage({
                  id: 'onboarding.import.submit',
                  defaultMessage: 'Import wallet',
                  description: 'Button that imports the wallet.',
                })}
          </button>
          {!secret.trim() && (
            <span className="field-hint" id="import-why">
              {kind === 'phrase'
                ? intl.formatMessage({
                    id: 'onboarding.import.phraseWhy',
                    defaultMessage: 'Enter your recovery phrase first.',
                    description: 'Why Import is disabled (no phrase typed).',
                  })
                : intl.formatMessage({
                    id: 'onboarding.import.keyWhy',
                    defaultMessage: 'Enter your private key first.',
                    description: 'Why Import is disabled (no key typed).',
                  })}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
