import { FormattedMessage, useIntl } from 'react-intl';
import { useState } from 'react';
import { useStore } from '../store.js';

/** A new wallet's recovery phrase, shown once to be written down. */
export function ShowPhrase() {
  const mnemonic = useStore((s) => s.onboarding?.mnemonic ?? '');
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const [saved, setSaved] = useState(false);
  const words = mnemonic.split(' ');
  const intl = useIntl();
  return (
    <section aria-labelledby="phrase-title">
      <h1 id="phrase-title">
        <FormattedMessage
          id="onboarding.phrase.title"
          defaultMessage="Write down your recovery phrase"
          description="Heading of the screen showing the 12 recovery words."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.phrase.lead"
          defaultMessage="These {count, number} words are the only way to restore your wallet on another computer. Anyone who has them can read your messages and speak as you. Keep them offline."
          description="Explains the recovery phrase; count is the number of words (12)."
          values={{ count: words.length }}
        />
      </p>
      <ol
        className="phrase-grid"
        aria-label={intl.formatMessage({
          id: 'onboarding.phrase.list',
          defaultMessage: 'Recovery phrase',
          description: 'Accessible name of the list of recovery words.',
        })}
        dir="ltr"
      >
        {words.map((w, i) => (
          <li key={i}>
            <span className="phrase-index">{intl.formatNumber(i + 1)}</span>
            <span className="phrase-word">{w}</span>
          </li>
        ))}
      </ol>
      <label className="check">
        <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <span>
          <FormattedMessage
            id="onboarding.phrase.saved"
            defaultMessage="I have written these words down somewhere safe"
            description="Checkbox the person ticks after writing the words down."
          />
        </span>
      </label>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary btn-lg"
          disabled={!saved}
          aria-describedby={saved ? undefined : 'phrase-continue-why'}
          onClick={() => goToOnboardingStep('create-confirm')}
        >
          <FormattedMessage
            id="onboarding.phrase.continue"
            defaultMessage="Continue"
            description="Button to the next setup step."
          />
        </button>
        {!saved && (
          <span className="field-hint" id="phrase-continue-why">
            <FormattedMessage
              id="onboarding.phrase.continueWhy"
              defaultMessage="Tick the box once the words are written down."
              description="Why Continue is disabled."
            />
          </span>
        )}
      </div>
    </section>
  );
}
