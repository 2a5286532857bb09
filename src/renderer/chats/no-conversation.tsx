import { FormattedMessage, useIntl } from 'react-intl';
import { EmptyState } from '../components/empty-state.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';

/** The conversation pane with none open: the one thing to do next (answer a request, find someone, pick a chat). */
export function NoConversation({ hasAny }: { hasAny: boolean }) {
  const intl = useIntl();
  const count = useStore((s) => s.conversations.length);
  const waiting = useStore((s) => s.requests.length);
  const showView = useStore((s) => s.showView);
  // A waiting request is the one thing to do here: say so, rather than "pick a conversation".
  if (waiting > 0)
    return (
      <EmptyState
        icon="inbox"
        title={intl.formatMessage(
          {
            id: 'chats.empty.requestsWaiting',
            defaultMessage:
              '{count, plural, one {A contact request is waiting} other {# contact requests are waiting}}',
            description: 'Title of the empty conversation pane when contact requests wait; {count} is how many',
          },
          { count: waiting },
        )}
        action={
          <button type="button" className="btn btn-primary" onClick={() => showView('requests')}>
            <Icon name="inbox" />{' '}
            <FormattedMessage
              id="chats.empty.openRequests"
              defaultMessage="Open requests"
              description="Button in the empty conversation pane that opens the Requests screen"
            />
          </button>
        }
      >
        <FormattedMessage
          id="chats.empty.requestsHint"
          defaultMessage="Someone new wrote to you. Accept to chat, or decline."
          description="Text under the title when contact requests wait"
        />
      </EmptyState>
    );
  if (count === 0 && !hasAny)
    return (
      <EmptyState
        icon="chat"
        title={intl.formatMessage({
          id: 'chats.empty.title',
          defaultMessage: 'No conversations yet',
          description: 'Title of the conversation pane before the first conversation',
        })}
        action={
          <button type="button" className="btn btn-primary" onClick={() => showView('directory')}>
            <Icon name="search" />{' '}
            <FormattedMessage
              id="chats.empty.findPeople"
              defaultMessage="Find people"
              description="Button that opens the directory, shown before the first conversation"
            />
          </button>
        }
      >
        <FormattedMessage
          id="chats.empty.hint"
          defaultMessage="Find someone in the directory, or start a chat with a wallet address."
          description="Text under 'No conversations yet'"
        />
      </EmptyState>
    );
  return (
    <EmptyState
      icon="chat"
      title={intl.formatMessage({
        id: 'chats.empty.pickTitle',
        defaultMessage: 'Pick a conversation',
        description: 'Title of the conversation pane when none is open',
      })}
    >
      <FormattedMessage
        id="chats.empty.pickHint"
        defaultMessage="Your messages are sealed on this device and opened only by the people in the conversation."
        description="Text under 'Pick a conversation'"
      />
    </EmptyState>
  );
}
