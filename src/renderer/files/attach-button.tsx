import { useRef } from 'react';
import { useIntl } from 'react-intl';
import type { ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { useAddDraftFiles } from './use-add-draft-files.js';

/** The attach button and its hidden file input. */
export function AttachButton({ conversationId }: { conversationId: ConversationId }) {
  const addDraftFiles = useAddDraftFiles(conversationId);
  const intl = useIntl();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        onChange={(e) => {
          const picked = Array.from(e.currentTarget.files ?? []);
          e.currentTarget.value = '';
          addDraftFiles(picked);
        }}
      />
      <button
        type="button"
        className="icon-btn attach-btn"
        aria-label={intl.formatMessage({
          id: 'composer.attach.label',
          defaultMessage: 'Attach files',
          description: 'Accessible name of the paper-clip button beside the message box',
        })}
        title={intl.formatMessage({
          id: 'composer.attach.title',
          defaultMessage: 'Attach files (or drop or paste them)',
          description: 'Tooltip of the paper-clip button beside the message box',
        })}
        onClick={() => input.current?.click()}
      >
        <Icon name="paperclip" />
      </button>
    </>
  );
}
