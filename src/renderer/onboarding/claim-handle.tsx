import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { useState } from 'react';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { TYPED_HANDLE, bareHandle } from '../../shared/identity-patterns.js';
import { isolate } from '../i18n/isolate.js';

/** The handle's sigil before the field: a symbol, the same in every language. */
const HANDLE_PREFIX = '@';
/** An example handle: a name, not a word to translate. */
const EXAMPLE_HANDLE = 'alice';

const problems = defineMessages({
  characters: {
    id: 'onboarding.handle.problem.characters',
    defaultMessage: 'A handle cannot have {chars}: only letters, digits and underscores.',
    description:
      'Under the handle field while what is typed has other characters; {chars} are those characters, e.g. “-” or “-”, “.”',
  },
  short: {
    id: 'onboarding.handle.problem.short',
    defaultMessage: 'Too short: a handle has at least 3 characters.',
    description: 'Under the handle field while fewer than 3 characters are typed',
  },
  long: {
    id: 'onboarding.handle.problem.long',
    defaultMessage: 'Too long: a handle has at most 32 characters.',
    description: 'Under the handle field while more than 32 characters are typed',
  },
});

/** Why a typed handle cannot be claimed, in words; null when it can (or nothing is typed yet). */
function handleProblem(typed: string, intl: IntlShape): string | null {
  const bare = bareHandle(typed);
  if (bare === '' || TYPED_HANDLE.test(typed)) return null;
  const bad = [...new Set(bare.replace(/[A-Za-z0-9_]/g, ''))];
  if (bad.length > 0)
    return intl.formatMessage(problems.characters, {
      chars: intl.formatList(bad.map((c) => isolate(`“${c === ' ' ? '␠' : c}”`, intl))),
    });
  return intl.formatMessage(bare.length < 3 ? problems.short : problems.long);
}

/** The last step: a handle people can find in the directory, or none for now. */
export function ClaimHandle() {
  const claimHandle = useStore((s) => s.claimHandle);
  const finishOnboarding = useStore((s) => s.finishOnboarding);
  const action = useAction(claimHandle);
  const [handle, setHandle] = useState('');
  const valid = TYPED_HANDLE.test(handle);
  const intl = useIntl();
  // said as it is typed (and read out), so a greyed-out Claim never leaves one guessing
  const problem = handleProblem(handle, intl);
  const handleLabel = intl.formatMessage({
    id: 'onboarding.handle.label',
    defaultMessage: 'Handle',
    description: 'Label of the handle field.',
  });
  return (
    <section aria-labelledby="handle-title">
      <h1 id="handle-title">
        <FormattedMessage
          id="onboarding.handle.title"
          defaultMessage="Pick a handle"
          description="Heading of the handle step."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.handle.lead"
          defaultMessage="A handle lets people find you in the directory without copying your address. You can change it later."
          description="What a handle is."
        />
      </p>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(handle)).ok) finishOnboarding();
        }}
      >
        <label className="field">
          <span className="field-label">{handleLabel}</span>
          <span className="input-prefix" dir="ltr">
            <span aria-hidden="true">{HANDLE_PREFIX}</span>
            <input
              aria-label={handleLabel}
              aria-describedby={problem ? 'handle-problem handle-hint' : 'handle-hint'}
              aria-invalid={problem ? true : undefined}
              value={bareHandle(handle)}
              onChange={(e) => setHandle(e.target.value)}
              autoFocus
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              placeholder={EXAMPLE_HANDLE}
            />
          </span>
          <span className="field-hint" id="handle-hint">
            <FormattedMessage
              id="onboarding.handle.hint"
              defaultMessage="3–32 letters, digits or underscores."
              description="Rule for handles."
            />
          </span>
          <span className="field-problem" id="handle-problem" aria-live="polite">
            {problem}
          </span>
        </label>
        <FormError error={action.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={finishOnboarding}>
            <FormattedMessage
              id="onboarding.handle.skip"
              defaultMessage="Skip for now"
              description="Button that finishes setup without a handle."
            />
          </button>
          <button
            type="submit"
            className="btn btn-primary btn-lg"
            disabled={action.busy || !valid}
            aria-describedby={problem ? 'handle-problem' : undefined}
          >
            {action.busy
              ? intl.formatMessage({
                  id: 'onboarding.handle.claiming',
                  defaultMessage: 'Claiming…',
                  description: 'Claim button while claiming.',
                })
              : intl.formatMessage({
                  id: 'onboarding.handle.claim',
                  defaultMessage: 'Claim handle',
                  description: 'Button that claims the typed handle.',
                })}
          </button>
        </div>
      </form>
    </section>
  );
}
