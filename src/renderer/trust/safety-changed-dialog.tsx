import { FormattedMessage, useIntl } from 'react-intl';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/**
 * Asked once, before the first message after a verified contact's devices changed: send
 * anyway (which answers the question), or verify first.
 */
export function SafetyChangedDialog({
  address,
  name,
  onAnswer,
}: {
  address: string;
  name: string;
  onAnswer: (send: boolean) => void;
}) {
  const verifyContact = useStore((s) => s.verifyContact);
  const openVerify = useStore((s) => s.openVerify);
  const confirm = useAction(verifyContact);
  const intl = useIntl();
  return (
    <Dialog
      title={intl.formatMessage({
        id: 'safetyChanged.title',
        defaultMessage: 'Safety number changed',
        description: 'Title of the question asked before sending to a verified contact whose devices changed',
      })}
      open
      onClose={() => onAnswer(false)}
    >
      <div className="stack">
        <p>
          <FormattedMessage
            id="safetyChanged.text"
            defaultMessage="{name}’s devices changed since you verified their safety number. It may be a new computer of theirs, or someone else’s key. Your message has not been sent."
            description="In the Safety number changed dialog; {name} is the contact’s handle or short address"
            values={{ name: <bdi dir="ltr">{name}</bdi> }}
          />
        </p>
        <FormError error={confirm.error} />
        <div className="row end">
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              onAnswer(false);
              openVerify(address);
            }}
          >
            <FormattedMessage
              id="safetyChanged.verifyFirst"
              defaultMessage="Verify first"
              description="Button in the Safety number changed dialog: open the safety number instead of sending"
            />
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={confirm.busy}
            onClick={async () => {
              if ((await confirm.run(address, false)).ok) onAnswer(true);
            }}
          >
            <FormattedMessage
              id="safetyChanged.sendAnyway"
              defaultMessage="Send anyway"
              description="Button in the Safety number changed dialog: send without verifying again"
            />
          </button>
        </div>
      </div>
    </Dialog>
  );
}
