import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Avatar } from '../people/avatar.js';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { avatarProblem, readAvatar } from './avatar-file.js';

/** Creates a group: its name, picture, whether it is listed, an optional password. */
export function CreateGroupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const createGroup = useStore((s) => s.createGroup);
  const action = useAction(createGroup);
  const [name, setName] = useState('');
  // Private unless the creator chooses to list it: listing a group is the step to think about.
  const [isPublic, setPublic] = useState(false);
  const [password, setPassword] = useState('');
  const [avatar, setAvatar] = useState<string | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const intl = useIntl();
  const publicLabel = intl.formatMessage({
    id: 'groups.create.public',
    defaultMessage: 'Public',
    description: 'Checkbox in the New group dialog: list the group under Discover',
  });
  return (
    <Dialog
      title={intl.formatMessage({
        id: 'groups.create.title',
        defaultMessage: 'New group',
        description: 'Title of the dialog that creates a group',
      })}
      open={open}
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await action.run({
            name: name.trim(),
            isPublic,
            ...(password ? { password } : {}),
            ...(avatar ? { avatar } : {}),
          });
          if (r.ok) {
            setName('');
            setPassword('');
            setAvatar(null);
            onClose();
          }
        }}
      >
        <div className="avatar-picker">
          <Avatar name={name || '?'} seed={name || 'new'} image={avatar} size={56} square />
          <label className="btn btn-secondary btn-sm file-btn">
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              aria-label={intl.formatMessage({
                id: 'groups.create.picture',
                defaultMessage: 'Group picture',
                description: 'Accessible name of the file input that picks the new group’s picture',
              })}
              onChange={async (e) => {
                const f = e.target.files?.[0];
                setAvatarError(null);
                if (!f) return;
                try {
                  setAvatar(await readAvatar(f));
                } catch (err) {
                  setAvatarError(avatarProblem(intl, err));
                }
              }}
            />
            <FormattedMessage
              id="groups.create.choosePicture"
              defaultMessage="Choose picture"
              description="Button that picks the new group’s picture"
            />
          </label>
          {avatar && (
            <button type="button" className="btn btn-link btn-sm" onClick={() => setAvatar(null)}>
              <FormattedMessage
                id="groups.create.removePicture"
                defaultMessage="Remove"
                description="Button that removes the picked picture of the new group"
              />
            </button>
          )}
        </div>
        <FormError error={avatarError} />
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="groups.create.name"
              defaultMessage="Group name"
              description="Field label in the New group dialog"
            />
          </span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={80}
            autoFocus
            placeholder={intl.formatMessage({
              id: 'groups.create.namePlaceholder',
              defaultMessage: 'Weekend hikers',
              description: 'Example group name in the Group name field',
            })}
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            aria-label={publicLabel}
            aria-describedby="public-hint"
            checked={isPublic}
            onChange={(e) => setPublic(e.target.checked)}
          />
          <span>
            {publicLabel}
            <span className="field-hint block" id="public-hint">
              <FormattedMessage
                id="groups.create.publicHint"
                defaultMessage="Listed under Discover; anyone on the relay can join."
                description="Hint under the Public checkbox; “Discover” is the tab of public groups"
              />
            </span>
          </span>
        </label>
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="groups.create.password"
              defaultMessage="Join password (optional)"
              description="Field label in the New group dialog: a password people must give to join"
            />
          </span>
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            maxLength={128}
          />
        </label>
        <FormError error={action.error} />
        <DialogFooter
          onCancel={onClose}
          submitLabel={intl.formatMessage({
            id: 'groups.create.submit',
            defaultMessage: 'Create group',
            description: 'Submit button of the New group dialog',
          })}
          disabled={!name.trim() || action.busy}
        />
      </form>
    </Dialog>
  );
}
