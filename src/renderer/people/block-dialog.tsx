import { FormattedMessage, useIntl } from 'react-intl';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/**
 * Asks before blocking someone, says what it does, and once done offers Undo in a notice: a
 * block made by mistake is one press away from undone (the request they sent comes back too).
 * `block` is what blocks (a request's sender, an invitation's inviter); `name` is how they are shown.
 */
export function BlockDialog({
  address,
  name,
  open,
  onClose,
  block,
}: {
  address: string;
  name: string;
  open: boolean;
  onClose: () => void;
  block: () => Promise<void>;
}) {
  const unblock = useStore((s) => s.unblock);
  const showToast = useStore((s) => s.showToast);
  const intl = useIntl();
  const action = useAction(block);
  const confirm = async () => {
    if (!(await action.run()).ok) return;
    onClose();
    showToast(
      'success',
      intl.formatMessage(
        { id: 'block.done', defaultMessage: 'Blocked {name}.', description: 'Notice after blocking; {name} is who' },
        { name },
      ),
      {
        label: intl.formatMessage({
          id: 'block.undo',
          defaultMessage: 'Undo',
          description: 'Button in the notice after blocking someone: unblocks them at once',
        }),
        focus: true,
        run: () =>
          void unblock(address).then(
            () =>
              showToast(
                'info',
                intl.formatMessage(
                  {
                    id: 'block.undone',
                    defaultMessage: 'Unblocked {name}.',
                    description: 'Notice after Undo of a block; {name} is who',
                  },
                  { name },
                ),
              ),
            (e: Error) => showToast('error', e.message),
          ),
      },
    );
  };
  return (
    <Dialog
      title={intl.formatMessage(
        {
          id: 'block.title',
          defaultMessage: 'Block {name}?',
          description: 'Title of the dialog before blocking; {name} is who',
        },
        { name },
      )}
      open={open}
      onClose={onClose}
    >
      <div className="stack">
        <p>
          <FormattedMessage
            id="block.explain"
            defaultMessage="{name} will not be able to write to you, add you to groups or show up in your chats, and what they write in groups you share is hidden. You can unblock them in Settings → Blocked."
            description="In the dialog before blocking; {name} is who"
            values={{ name: <bdi dir="ltr">{name}</bdi> }}
          />
        </p>
        <FormError error={action.error} />
        <div className="row end">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            <FormattedMessage
              id="block.cancel"
              defaultMessage="Cancel"
              description="Button that closes the block dialog without blocking"
            />
          </button>
          <button type="button" className="btn btn-danger" disabled={action.busy} onClick={() => void confirm()}>
            <FormattedMessage id="block.confirm" defaultMessage="Block" description="Button that blocks the person" />
          </button>
        </div>
      </div>
    </Dialog>
  );
}
