import { useEffect } from 'react';
import type { Preferences } from '../../shared/domain.js';
import { bridgeKind } from '../bridge.js';
import { askNotificationPermission } from '../browser-notifications.js';
import { FormError } from '../components/form-error.js';
import { Switch } from '../components/switch.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** Read receipts and desktop notifications: what others learn, and what the desktop shows. */
export function NotificationSettings() {
  const prefs = useStore((s) => s.preferences);
  const loadPreferences = useStore((s) => s.loadPreferences);
  const setPreferences = useStore((s) => s.setPreferences);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(async (p: Partial<Preferences>) => {
    // The browser asks only now, from the switch the person turned on, and remembers the answer.
    if (p.notifications && bridgeKind === 'web') {
      const answer = await askNotificationPermission();
      if (answer === 'unsupported') throw new Error('This browser cannot show notifications.');
      if (answer === 'denied') throw new Error('The browser blocks notifications for this page. Allow them in the site settings (the icon left of the address), then turn this on again.');
    }
    await setPreferences(p);
  });
  useEffect(() => {
    loadPreferences().catch((e: Error) => showToast('error', e.message));
  }, [loadPreferences, showToast]);
  if (!prefs) return null;
  return (
    <section className="card section" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications and receipts</h2>
      <div className="toggle-row">
        <div>
          <div className="toggle-title">Send read receipts</div>
          <div className="subtle small">People you chat with see when you have read their messages. Turned off, they still see that a message was delivered, and you still see when yours are read.</div>
        </div>
        <Switch label="Send read receipts" checked={prefs.readReceipts} busy={action.busy} onChange={(v) => void action.run({ readReceipts: v })} />
      </div>
      <div className="toggle-row">
        <div>
          <div className="toggle-title">Desktop notifications</div>
          <div className="subtle small">New messages and contact requests while this window is in the background. Muted conversations stay quiet.</div>
        </div>
        <Switch label="Desktop notifications" checked={prefs.notifications} busy={action.busy} onChange={(v) => void action.run({ notifications: v })} />
      </div>
      <div className="toggle-row">
        <div>
          <div className="toggle-title">Show sender only</div>
          <div className="subtle small">Notifications name who wrote, without the message text, for screens others can see.</div>
        </div>
        <Switch
          label="Show sender only"
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
