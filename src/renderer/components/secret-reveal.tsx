import { FormattedMessage, useIntl } from 'react-intl';
import { CopyButton } from './copy-button.js';
import { Icon } from './icon.js';

/** A secret the relay shows once: said plainly, copyable, never kept by the page. */
export function SecretReveal({ secret, what }: { secret: string; what: string }) {
  const intl = useIntl();
  return (
    <div className="secret-reveal" role="group" aria-label={intl.formatMessage({ id: 'secret.reveal.label', defaultMessage: 'New {what}', description: 'Accessible name of the box showing a just-made secret; what is e.g. “API key” or “bot token”.' }, { what })}>
      <p className="secret-note">
        <Icon name="lock" size={15} /> <FormattedMessage id="secret.reveal.note" defaultMessage="Copy this {what} now. It is shown only once and cannot be recovered." description="Warning above a secret the relay shows once; what is e.g. “API key” or “bot token”." values={{ what }} />
      </p>
      <div className="secret-row">
        <code className="secret-value" dir="ltr" data-copy-source={secret} aria-label={intl.formatMessage({ id: 'secret.reveal.value', defaultMessage: '{what} secret', description: 'Accessible name of the secret value itself.' }, { what })}>
          {secret}
        </code>
        <CopyButton text={secret} label={intl.formatMessage({ id: 'secret.reveal.copy', defaultMessage: 'Copy {what}', description: 'Button that copies the new secret.' }, { what })} />
      </div>
    </div>
  );
}
