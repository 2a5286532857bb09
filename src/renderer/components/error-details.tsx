import { FormattedMessage } from 'react-intl';
/**
 * A failure as people read it: the sentence the one error mapper made (shared/plain-errors.ts),
 * and the network's or relay's own words (`connect ECONNREFUSED …`) only behind "Details",
 * for whoever runs the relay or reports the problem.
 */
export function ErrorDetails({ detail }: { detail: string | null | undefined }) {
  if (!detail) return null;
  return (
    <details className="error-details">
      <summary>
        <FormattedMessage
          id="error.details"
          defaultMessage="Details"
          description="Disclosure that shows the technical detail of an error (the network’s or relay’s own words, in English)."
        />
      </summary>
      <code dir="ltr">{detail}</code>
    </details>
  );
}
