import { CopyButton } from './copy-button.js';
import { Icon } from './icon.js';

/**
 * The sentences about one kind of secret, each whole from the caller's catalogue: a noun spliced
 * into "New {what}" would not take its gender, case or article in other languages.
 */
export interface SecretTexts {
  /** the box's accessible name: "New API key" */
  label: string;
  /** the warning: "Copy this API key now. It is shown only once and cannot be recovered." */
  note: string;
  /** the value's accessible name: "API key secret" */
  value: string;
  /** the copy button: "Copy API key" */
  copy: string;
}

/** A secret the relay shows once: said plainly, copyable, never kept by the page. */
export function SecretReveal({ secret, texts }: { secret: string; texts: SecretTexts }) {
  return (
    <div className="secret-reveal" role="group" aria-label={texts.label}>
      <p className="secret-note">
        <Icon name="lock" size={15} /> {texts.note}
      </p>
      <div className="secret-row">
        <code className="secret-value" dir="ltr" data-copy-source={secret} aria-label={texts.value}>
          {secret}
        </code>
        <CopyButton text={secret} label={texts.copy} />
      </div>
    </div>
  );
}
