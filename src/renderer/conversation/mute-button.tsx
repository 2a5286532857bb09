import { useIntl } from 'react-intl';
import type { ConversationSummary } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/** Silences this conversation's desktop notifications; its unread count still shows. */
export function MuteButton({ c }: { c: ConversationSummary }) {
  const muteConversation = useStore((s) => s.muteConversation);
  const action = useAction(muteConversation);
  const showToast = useStore((s) => s.showToast);
  const intl = useIntl();
  const mute = intl.formatMessage({
    id: 'chats.mute.label',
    defaultMessage: 'Mute notifications',
    description: 'Toggle button in the conversation header (pressed when muted)',
  });
  return (
    <button
      type="button"
      className="icon-btn"
      aria-pressed={c.muted}
      aria-label={mute}
      title={
        c.muted
          ? intl.formatMessage({
              id: 'chats.mute.mutedTitle',
              defaultMessage: 'Muted: no notifications from this conversation',
              description: 'Tooltip of the mute button while the conversation is muted',
            })
          : mute
      }
      disabled={action.busy}
      onClick={async () => {
        if (!(await action.run(c.id, !c.muted)).ok)
          showToast(
            'error',
            intl.formatMessage({
              id: 'chats.mute.failed',
              defaultMessage: 'Could not change the mute setting.',
              description: 'Error toast when muting or unmuting failed',
            }),
          );
      }}
    >
      <Icon name={c.muted ? 'bellOff' : 'bell'} />
    </button>
  );
}
