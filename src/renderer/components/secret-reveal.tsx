import { CopyButton } from './copy-button.js';
import { Icon } from './icon.js';

/** A secret the relay shows once: said plainly, copyable, never kept by the page. */
export function SecretReveal({ secret, what }: { secret: string; what: string }) {
  return (
    <div className="secret-reveal" role="group" aria-label={`New ${what}`}>
      <p className="secret-note">
        <Icon name="lock" size={15} /> Copy this {what} now. It is shown only once and cannot be recovered.
      </p>
      <div className="secret-row">
        <code className="secret-value" data-copy-source={secret} aria-label={`${what} secret`}>
          {secret}
        </code>
        <CopyButton text={secret} label={`Copy ${what}`} />
      </div>
    </div>
  );
}
