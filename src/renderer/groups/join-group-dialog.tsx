import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { GroupInfo } from '../../shared/domain.js';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/** Asks for the password of a group that has one before joining it. */
export function JoinGroupDialog({ g, open, onClose }: { g: GroupInfo; open: boolean; onClose: () => void }) {
  const joinGroup = useStore((s) => s.joinGroup);
  const action = useAction(joinGroup);
  const [password, setPassword] = useState('');
  const intl = useIntl();
  return (
    <Dialog
      title={intl.formatMessage(
        {
          id: 'groups.join.title',
          defaultMessage: 'Join {name}',
          description: 'Title of the dialog asking for a group’s password; {name} is the group',
        },
        { name: g.name },
      )}
      open={open}
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(g.id, password)).ok) {
            setPassword('');
            onClose();
          }
        }}
      >
        <p className="subtle">
          <FormattedMessage
            id="groups.join.hint"
            defaultMessage="This group asks for a password. Get it from someone in the group."
            description="Text in the dialog asking for a group’s password"
          />
        </p>
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="groups.join.password"
              defaultMessage="Group password"
              description="Field label in the dialog asking for a group’s password"
            />
          </span>
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        </label>
        <FormError error={action.error} />
        <DialogFooter
          onCancel={onClose}
          submitLabel={intl.formatMessage({
            id: 'groups.join.submit',
            defaultMessage: 'Join',
            description: 'Submit button of the dialog asking for a group’s password',
          })}
          disabled={!password || action.busy}
        />
      </form>
    </Dialog>
  );
}
