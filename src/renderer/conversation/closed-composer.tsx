import { FormattedMessage } from 'react-intl';
import type { ConversationClosed } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { usePersonName } from '../people/person-name.js';

/** Where the message box was: why nothing can be sent here any more. */
export function ClosedComposer({ closed }: { closed: ConversationClosed }) {
  return (
    <div className="composer-closed" role="note">
      <Icon name="lock" size={16} />
      <span>
        {closed.reason === 'left' ? (
          <FormattedMessage
            id="composer.closed.left"
            defaultMessage="You can't send messages to this group: you left it."
            description="In place of the message box of a group one left"
          />
        ) : closed.by ? (
          <RemovedBy address={closed.by} />
        ) : (
          <FormattedMessage
            id="composer.closed.removed"
            defaultMessage="You can't send messages to this group: you are no longer a member."
            description="In place of the message box of a group one was removed from, when it is not known by whom"
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
      id="composer.closed.removedBy"
      defaultMessage="You can't send messages to this group: {name} removed you."
      description="In place of the message box of a group one was removed from; {name} is who removed them (handle or short address)"
      values={{ name: <bdi dir="ltr">{name}</bdi> }}
    />
  );
}
