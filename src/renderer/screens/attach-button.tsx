import { useRef } from 'react';
import type { ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store/store.js';

/** The attach button and its hidden file input. */
export function AttachButton({ conversationId }: { conversationId: ConversationId }) {
  const addDraftFiles = useStore((s) => s.addDraftFiles);
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
          void addDraftFiles(conversationId, picked);
        }}
      />
      <button type="button" className="icon-btn attach-btn" aria-label="Attach files" title="Attach files (or drop or paste them)" onClick={() => input.current?.click()}>
        <Icon name="paperclip" />
      </button>
    </>
  );
}
