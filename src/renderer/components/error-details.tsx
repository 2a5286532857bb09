/**
 * A failure as people read it: the sentence the one error mapper made (shared/plain-errors.ts),
 * and the network's or relay's own words (`connect ECONNREFUSED …`) only behind "Details",
 * for whoever runs the relay or reports the problem.
 */
export function ErrorDetails({ detail }: { detail: string | null | undefined }) {
  if (!detail) return null;
  return (
    <details className="error-details">
      <summary>Details</summary>
      <code>{detail}</code>
    </details>
  );
}
