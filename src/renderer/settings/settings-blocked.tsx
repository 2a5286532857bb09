import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Avatar } from '../people/avatar.js';
import { FormError } from '../components/form-error.js';
import { Person } from '../people/person.js';
import { displayName } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/** Settings → Blocked: the one place blocked people are listed, each with Unblock. */
export function SettingsBlocked() {
  const blocked = useStore((s) => s.blocked);
  const loadBlocked = useStore((s) => s.loadBlocked);
  const unblock = useStore((s) => s.unblock);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(unblock);
  const intl = useIntl();
  useEffect(() => {
    loadBlocked().catch((e: Error) => showToast('error', e.message));
  }, [loadBlocked, showToast]);
  const title = intl.formatMessage({
    id: 'settings.blocked.title',
    defaultMessage: 'Blocked',
    description: 'Settings section listing the people one blocked, and the list’s name.',
  });
  return (
    <section className="card section" aria-labelledby="blocked-title">
      <h2 id="blocked-title">{title}</h2>
      <p className="subtle small">
        <FormattedMessage
          id="settings.blocked.lead"
          defaultMessage="People you blocked cannot write to you or add you to groups, and appear nowhere else in the app. Unblocking brings back a request they had sent."
          description="Explains the Blocked section of Settings."
        />
      </p>
      {blocked && blocked.length === 0 ? (
        <p className="subtle">
          <FormattedMessage
            id="settings.blocked.none"
            defaultMessage="You have not blocked anyone."
            description="In Settings → Blocked when nobody is blocked."
          />
        </p>
      ) : (
        <ul className="plain-list" aria-label={title}>
          {(blocked ?? []).map((b) => {
            const name = displayName(b.handle, b.address);
            return (
              <li key={b.address} className="member-row">
                <Avatar name={b.handle ?? b.address} seed={b.address} size={28} />
                <span className="member-name">
                  <Person address={b.address} handle={b.handle} />
                </span>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm push"
                  disabled={action.busy}
                  onClick={() => void action.run(b.address)}
                  aria-label={intl.formatMessage(
                    {
                      id: 'settings.blocked.unblockLabel',
                      defaultMessage: 'Unblock {name}',
                      description: 'Accessible name of the Unblock button beside a blocked person; {name} is who',
                    },
                    { name },
                  )}
                >
                  <FormattedMessage
                    id="settings.blocked.unblock"
                    defaultMessage="Unblock"
                    description="Button beside a blocked person in Settings: ends the block"
                  />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <FormError error={action.error} />
    </section>
  );
}
