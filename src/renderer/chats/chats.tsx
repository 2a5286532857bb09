import { useIntl } from 'react-intl';
import { useStore } from '../store.js';
import { NoConversation } from './no-conversation.js';
import { ConversationList } from './conversation-list.js';
import { Conversation } from '../conversation/conversation.js';
import { shownInChats } from '../people/relationships-slice.js';

/** The Chats section: the list of conversations beside the open one. */
export function Chats() {
  const intl = useIntl();
  const activeId = useStore((s) => s.activeConversationId);
  // someone blocked while their chat was open: it closes with the rest of what showed them
  const active = useStore((s) => {
    const c = s.conversations.find((x) => x.id === s.activeConversationId) ?? null;
    return c && shownInChats(s, c) ? c : null;
  });
  return (
    <div className="split">
      <ConversationList />
      <section
        className="pane conversation-pane"
        aria-label={
          active
            ? intl.formatMessage(
                {
                  id: 'chats.conversation.label',
                  defaultMessage: 'Conversation with {name}',
                  description:
                    'Accessible name of the pane showing the open conversation; {name} is the contact or group',
                },
                { name: active.title },
              )
            : intl.formatMessage({
                id: 'chats.conversation.labelNone',
                defaultMessage: 'Conversation',
                description: 'Accessible name of the conversation pane when no conversation is open',
              })
        }
      >
        {active ? <Conversation key={active.id} c={active} /> : <NoConversation hasAny={activeId !== null} />}
      </section>
    </div>
  );
}
