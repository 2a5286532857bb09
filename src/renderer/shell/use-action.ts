import { useCallback, useState } from 'react';
import { useIntl } from 'react-intl';
import type { RecipientProblem } from '../../shared/recipient.js';
import { errorText } from '../i18n/error-messages.js';

/**
 * Runs one user action at a time and keeps its error for the form that started it. The error
 * is kept as thrown and put into words when shown, so a DescribedError (the page's own) reads in
 * the current language even after a language change; main's sentences were translated at the
 * bridge already.
 */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const run = useCallback(
    async (...args: A): Promise<{ ok: true; value: R } | { ok: false }> => {
      setBusy(true);
      setFailure(null);
      try {
        return { ok: true, value: await fn(...args) };
      } catch (e) {
        setFailure(e ?? String(e));
        return { ok: false };
      } finally {
        setBusy(false);
      }
    },
    [fn],
  );
  const error = failure === null ? null : errorText(intl, failure);
  // the technical reason a bridge error brings along (bridge.ts), for the form's "Details"
  const detail = (failure as { detail?: unknown } | null)?.detail;
  // a form's own finding (a recipient problem) is kept as found too, and worded when shown
  const setError = useCallback((e: string | RecipientProblem | null) => setFailure(e), []);
  return { run, busy, error, errorDetail: typeof detail === 'string' ? detail : null, setError };
}
