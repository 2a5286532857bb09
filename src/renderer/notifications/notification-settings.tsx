import { FormattedMessage, useIntl } from 'react-intl';
import { useEffect } from 'react';
import type { Preferences } from '../../shared/domain.js';
import { bridgeKind } from '../bridge/bridge.js';
import { askNotificationPermission } from './browser-notifications.js';
import { FormError } from '../components/form-error.js';
import { Switch } from '../components/switch.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/** Read receipts and desktop notifications: what others learn, and what the desktop shows. */
export function NotificationSettings() {
  const prefs = useStore((s) => s.preferences);
  const loadPreferences = useStore((s) => s.loadPreferences);
  const setPreferences = useStore((s) => s.setPreferences);
  const showToast = useStore((s) => s.showToast);
  const intl = useIntl();
  const action = useAction(async (p: Partial<Preferences>) => {
    // The browser asks only now, from the switch the person turned on, and remembers the answer.
    if (p.notifications && bridgeKind === 'web') {
      const answer = await askNotificationPermission();
      if (answer === 'unsupported')
        throw new Error(
          intl.formatMessage({
            id: 'notifications.unsupported',
            defaultMessage: 'This browser cannot show notifications.',
            description: 'Error when the browser has no notifications.',
          }),
        );
      if (answer === 'denied')
        throw new Error(
          intl.formatMessage({
            id: 'notifications.denied',
            defaultMessage:
              'The browser blocks notifications for this page. Allow them in the site settings (the icon beside the address), then turn this on again.',
            description: 'Error when the browser blocks notifications for the page.',
          }),
        );
    }
    await setPreferences(p);
  });
  useEffect(() => {
    loadPreferences().catch((e: Error) => showToast('error', e.message));
  }, [loadPreferences, showToast]);
  if (!prefs) return null;
  const receiptsLabel = intl.formatMessage({
    id: 'notifications.receipts',
    defaultMessage: 'Send read receipts',
    description: 'Switch: tell others when you have read their messages.',
  });
  const desktopLabel = intl.formatMessage({
    id: 'notifications.desktop',
    defaultMessage: 'Desktop notifications',
    description: 'Switch: show system notifications.',
  });
  const senderLabel = intl.formatMessage({
    id: 'notifications.senderOnly',
    defaultMessage: 'Show sender only',
    description: 'Switch: notifications without the message text.',
  });
  return (
    <section className="card section" aria-labelledby="notifications-title">
      <h2 id="notifications-title">
        <FormattedMessage
          id="notifications.title"
          defaultMessage="Notifications and receipts"
          description="Settings section of read receipts and desktop notifications."
        />
      </h2>
      <div className="toggle-row">
        <div>
          <div className="toggle-title">{receiptsLabel}</div>
          <div className="subtle small">
            <FormattedMessage
              id="notifications.receipts.hint"
              defaultMessage="People you chat with see when you have read their messages. Turned off, they still see that a message was delivered, and you still see when yours are read."
              description="Explains read receipts."
            />
          </div>
        </div>
        <Switch
          label={receiptsLabel}
          checked={prefs.readReceipts}
          busy={action.busy}
          onChange={(v) => void action.run({ readReceipts: v })}
        />
      </div>
      <div className="toggle-row">
        <div>
          <div className="toggle-title">{desktopLabel}</div>
          <div className="subtle small">
            <FormattedMessage
              id="notifications.desktop.hint"
              defaultMessage="New messages and contact requests while this window is in the background. Muted conversations stay quiet."
              description="Explains desktop notifications."
            />
          </div>
        </div>
        <Switch
          label={desktopLabel}
          checked={prefs.notifications}
          busy={action.busy}
          onChange={(v) => void action.run({ notifications: v })}
        />
      </div>
      <div className="toggle-row">
        <div>
          <div className="toggle-title">{senderLabel}</div>
          <div className="subtle small">
            <FormattedMessage
              id="notifications.senderOnly.hint"
              defaultMessage="Notifications name who wrote, without the message text, for screens others can see."
              description="Explains “Show sender only”."
            />
          </div>
        </div>
        <Switch
          label={senderLabel}
          checked={prefs.notificationPreview === 'sender'}
          busy={action.busy}
          disabled={!prefs.notifications}
          onChange={(v) => void action.run({ notificationPreview: v ? 'sender' : 'full' })}
        />
      </div>
      <FormError error={action.error} />
    </section>
  );
}
