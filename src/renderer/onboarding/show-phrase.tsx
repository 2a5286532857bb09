import { FormattedMessage } from 'react-intl';
import { useState } from 'react';
import { useStore } from '../store.js';
import { PhraseList } from './phrase-list.js';

/**
 * A new wallet's recovery phrase, to be written down. Until the person confirms it, a reload or
 * a restart comes back here with the same words (kept in the vault, asked for again).
 */
export function ShowPhrase() {
  const mnemonic = useStore((s) => s.onboarding?.mnemonic ?? null);
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const [saved, setSaved] = useState(false);
  if (mnemonic === null)
    return (
      <p className="subtle" role="status">
        <FormattedMessage
          id="onboarding.phrase.loading"
          defaultMessage="Getting your recovery phrase…"
          description="While the recovery phrase is read from the vault again (after a reload)."
        />
      </p>
    );
  const words = mnemonic.split(' ');
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
      <PhraseList words={words} />
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
