import { FormattedMessage, useIntl } from 'react-intl';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/** Asks before taking someone out of a group, and says what they will see. */
export function RemoveMemberDialog({
  groupId,
  groupName,
  address,
  name,
  onClose,
}: {
  groupId: string;
  groupName: string;
  address: string;
  name: string;
  onClose: () => void;
}) {
  const removeMember = useStore((s) => s.removeMember);
  const action = useAction(removeMember);
  const intl = useIntl();
  return (
    <Dialog
      title={intl.formatMessage(
        {
          id: 'groups.remove.title',
          defaultMessage: 'Remove {name} from {group}?',
          description: 'Title of the dialog before removing a member; {name} is the member, {group} the group’s name',
        },
        { name, group: groupName },
      )}
      open
      onClose={onClose}
    >
      <div className="stack">
        <p>
          <FormattedMessage
            id="groups.remove.explain"
            defaultMessage="{name} stops receiving this group’s messages, and their app tells them that you removed them. You can add them again later."
            description="In the dialog before removing a member; {name} is the member"
            values={{ name: <bdi dir="ltr">{name}</bdi> }}
          />
        </p>
        <FormError error={action.error} />
        <div className="row end">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            <FormattedMessage
              id="groups.remove.cancel"
              defaultMessage="Cancel"
              description="Button that closes the remove-member dialog without removing anyone"
            />
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={action.busy}
            onClick={async () => {
              if ((await action.run(groupId, address)).ok) onClose();
            }}
          >
            <FormattedMessage
              id="groups.remove.confirm"
              defaultMessage="Remove"
              description="Button that removes the member from the group"
            />
          </button>
        </div>
      </div>
    </Dialog>
  );
}
