import { useState } from 'react';
import { useIntl } from 'react-intl';
import { Dialog } from '../components/dialog.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { FormError } from '../components/form-error.js';
import { parseRecipient, recipientText } from '../../shared/recipient.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { RecipientField } from '../people/recipient-field.js';

/** Starts a direct conversation with an address or @handle. */
export function NewChatDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const startConversation = useStore((s) => s.startConversation);
  const action = useAction(startConversation);
  const [to, setTo] = useState('');
  return (
    <Dialog
      title={intl.formatMessage({
        id: 'chats.newChat.title',
        defaultMessage: 'New chat',
        description: 'Title of the dialog that starts a chat with an address or handle',
      })}
      open={open}
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = parseRecipient(to);
          if ('problem' in r) return action.setError(r);
          if ((await action.run(recipientText(r))).ok) {
            setTo('');
            onClose();
          }
        }}
      >
        <RecipientField
          label={intl.formatMessage({
            id: 'chats.newChat.recipient',
            defaultMessage: 'Address or handle',
            description: 'Field label in the New chat dialog',
          })}
          value={to}
          onChange={(v) => {
            setTo(v);
            // an answer about what was typed before must not stay under what is typed now
            action.setError(null);
          }}
          placeholder={intl.formatMessage({
            id: 'chats.newChat.placeholder',
            defaultMessage: '@alice or 0x…',
            description:
              'Placeholder of the New chat field: an example handle (@alice, keep it) or an address starting with 0x',
          })}
          autoFocus
          invalid={!!action.error}
        />
        <FormError error={action.error} />
        <DialogFooter
          onCancel={onClose}
          submitLabel={intl.formatMessage({
            id: 'chats.newChat.submit',
            defaultMessage: 'Start chat',
            description: 'Submit button of the New chat dialog',
          })}
          disabled={!to.trim() || action.busy}
        />
      </form>
    </Dialog>
  );
}
