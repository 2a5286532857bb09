import { FormattedMessage } from 'react-intl';
import type { ConversationClosed } from '../../shared/domain.js';
import { usePersonName } from '../people/person-name.js';

/** The last line of a group's chat once we are out of it: who removed us, or that we left. */
export function ClosedNotice({ closed }: { closed: ConversationClosed }) {
  return (
    <div className="timer-notice closed-notice">
      <span>
        {closed.reason === 'left' ? (
          <FormattedMessage
            id="messageList.closed.left"
            defaultMessage="You left the group"
            description="Notice at the end of a group's messages after one left it"
          />
        ) : closed.by ? (
          <RemovedBy address={closed.by} />
        ) : (
          <FormattedMessage
            id="messageList.closed.removed"
            defaultMessage="You were removed from the group"
            description="Notice at the end of a group's messages after one was removed, when it is not known by whom"
          />
        )}
      </span>
    </div>
  );
}

function RemovedBy({ address }: { address: string }) {
  const name = usePersonName(address);
  return (
    <FormattedMessage
      id="messageList.closed.removedBy"
      defaultMessage="{name} removed you from the group"
      description="Notice at the end of a group's messages after one was removed; {name} is who removed them (handle or short address)"
      values={{ name: <bdi dir="ltr">{name}</bdi> }}
    />
  );
}
