import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/**
 * Asked once, before the first message after a verified contact's devices changed: send
 * anyway (which answers the question), or verify first.
 */
export function SafetyChangedDialog({ address, name, onAnswer }: { address: string; name: string; onAnswer: (send: boolean) => void }) {
  const verifyContact = useStore((s) => s.verifyContact);
  const openVerify = useStore((s) => s.openVerify);
  const confirm = useAction(verifyContact);
  return (
    <Dialog title="Safety number changed" open onClose={() => onAnswer(false)}>
      <div className="stack">
        <p>
          {name}’s devices changed since you verified their safety number. It may be a new computer of theirs, or someone else’s key. Your message has not been sent.
        </p>
        <FormError error={confirm.error} />
        <div className="row end">
          <button type="button" className="btn btn-ghost" onClick={() => {
            onAnswer(false);
            openVerify(address);
          }}>
            Verify first
          </button>
          <button type="button" className="btn btn-primary" disabled={confirm.busy} onClick={async () => {
            if ((await confirm.run(address, false)).ok) onAnswer(true);
          }}>
            Send anyway
          </button>
        </div>
      </div>
    </Dialog>
  );
}
