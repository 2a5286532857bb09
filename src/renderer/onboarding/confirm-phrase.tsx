import { FormattedMessage, useIntl } from 'react-intl';
import { useMemo, useState, type FormEvent } from 'react';
import { Icon } from '../components/icon.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/**
 * Three positions (1-based, ascending) the user must type back, chosen at random each time so
 * that the check cannot be passed by remembering which words it asks for.
 */
function confirmPositions(count: number): number[] {
  const picked = new Set<number>();
  const r = new Uint32Array(1);
  while (picked.size < Math.min(3, count)) {
    crypto.getRandomValues(r);
    picked.add((r[0] % count) + 1);
  }
  return [...picked].sort((a, b) => a - b);
}

/** Three words of the recovery phrase typed back before setup goes on, to be sure they were written down. */
export function ConfirmPhrase() {
  const mnemonic = useStore((s) => s.onboarding?.mnemonic ?? '');
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const confirmPhrase = useStore((s) => s.confirmPhrase);
  const confirm = useAction(confirmPhrase);
  const words = useMemo(() => mnemonic.split(' '), [mnemonic]);
  const [positions] = useState(() => confirmPositions(words.length));
  const [answers, setAnswers] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const intl = useIntl();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = positions.filter((p) => (answers[p] ?? '').trim().toLowerCase() !== words[p - 1]);
    if (wrong.length)
      setError(
        intl.formatMessage(
          {
            id: 'onboarding.confirm.wrong',
            defaultMessage:
              "{count, plural, one {Word {words} doesn't match.} other {Words {words} don't match.}} Check what you wrote down.",
            description: 'Error when typed recovery words are wrong; words is a list of positions such as “3 and 7”.',
          },
          {
            count: wrong.length,
            words: intl.formatList(
              wrong.map((n) => intl.formatNumber(n)),
              { type: 'conjunction' },
            ),
          },
        ),
      );
    else {
      setError(null);
      void confirm.run();
    }
  };
  return (
    <section aria-labelledby="confirm-title">
      <h1 id="confirm-title">
        <FormattedMessage
          id="onboarding.confirm.title"
          defaultMessage="Confirm your recovery phrase"
          description="Heading of the screen that asks for three of the recovery words."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.confirm.lead"
          defaultMessage="Type the words at these positions, to be sure you have them."
          description="Introduction of the recovery phrase check."
        />
      </p>
      <form className="stack" onSubmit={submit}>
        <div className="confirm-grid">
          {positions.map((p, i) => (
            <label key={p} className="field">
              <span className="field-label">
                <FormattedMessage
                  id="onboarding.confirm.word"
                  defaultMessage="Word {position, number}"
                  description="Label of the field for one recovery word; position is 1 to 12."
                  values={{ position: p }}
                />
              </span>
              <input
                value={answers[p] ?? ''}
                autoFocus={i === 0}
                autoComplete="off"
                spellCheck={false}
                autoCapitalize="off"
                onChange={(e) => setAnswers({ ...answers, [p]: e.target.value })}
              />
            </label>
          ))}
        </div>
        <FormError error={error ?? confirm.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={() => goToOnboardingStep('create-phrase')}>
            <Icon name="arrowLeft" />{' '}
            <FormattedMessage
              id="onboarding.confirm.back"
              defaultMessage="Show the phrase again"
              description="Button back to the recovery words."
            />
          </button>
          <button type="submit" className="btn btn-primary btn-lg" disabled={confirm.busy}>
            <FormattedMessage
              id="onboarding.confirm.submit"
              defaultMessage="Confirm"
              description="Button that checks the typed recovery words."
            />
          </button>
        </div>
      </form>
    </section>
  );
}
