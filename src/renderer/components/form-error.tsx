import { ErrorDetails } from './error-details.js';

/**
 * The plain-language error of the form or action just above it, read out as soon as it appears,
 * with the technical reason behind "Details" when there is one.
 */
export function FormError({ error, detail }: { error: string | null | undefined; detail?: string | null }) {
  if (!error) return null;
  return (
    <>
      <p className="form-error" role="alert">
        {error}
      </p>
      <ErrorDetails detail={detail} />
    </>
  );
}
