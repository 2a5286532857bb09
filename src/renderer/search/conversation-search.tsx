import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { ConversationSummary } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';
import { MessageSearchResults } from './message-search-results.js';

/** The open conversation's own search, under its header: the hits in it, each opening the list at its message. Escape closes. */
export function ConversationSearch({ c, onClose }: { c: ConversationSummary; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const clearConversationSearch = useStore((s) => s.clearConversationSearch);
  useEffect(() => clearConversationSearch, [clearConversationSearch]);
  const intl = useIntl();
  const close = intl.formatMessage({
    id: 'conversationSearch.close',
    defaultMessage: 'Close search',
    description: 'Icon button that closes the search within a conversation',
  });
  return (
    <div
      className="conversation-search"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        onClose();
      }}
    >
      <div className="pane-search">
        <Icon name="search" size={16} />
        {/* a text box in the role of a search box: type="search" would draw the browser's own ✕
            beside the close button, two ✕ that do different things */}
        <input
          ref={input}
          type="text"
          role="searchbox"
          aria-label={intl.formatMessage(
            {
              id: 'conversationSearch.label',
              defaultMessage: 'Search in {name}',
              description: 'Accessible name of the search box within a conversation; {name} is the contact or group',
            },
            { name: c.title },
          )}
          placeholder={intl.formatMessage({
            id: 'conversationSearch.placeholder',
            defaultMessage: 'Search this conversation',
            description: 'Placeholder of the search box within a conversation',
          })}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoFocus
        />
        <button type="button" className="icon-btn" aria-label={close} title={close} onClick={onClose}>
          <Icon name="x" size={16} />
        </button>
      </div>
      <MessageSearchResults query={query} input={input} conversationId={c.id} />
    </div>
  );
}
