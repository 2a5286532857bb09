import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorDetails } from '../components/error-details.js';
import { Icon } from '../components/icon.js';
import { errorMessages, translateError } from '../i18n/error-messages.js';
import { useStore } from '../store.js';
import { useAction } from './use-action.js';

/**
 * Offline is said where the eye is, with what it means for what one writes, and a way to try
 * again at once. The app itself gone (web mode's server stopped) is said first: then nothing
 * else on the page is current.
 */
export function OfflineBanner() {
  const reachable = useStore((s) => s.appReachable);
  const online = useStore((s) => s.status?.relay.connected ?? true);
  const revoked = useStore((s) => s.status?.relay.revoked ?? false);
  const waiting = useStore((s) => s.sync?.pendingOutbox ?? 0);
  const lastError = useStore((s) => s.status?.relay.lastError ?? null);
  const detail = useStore((s) => s.status?.relay.lastErrorDetail ?? null);
  const syncNow = useStore((s) => s.syncNow);
  const retry = useAction(syncNow);
  const intl = useIntl();
  if (!reachable)
    return (
      <div className="offline-banner disconnected-banner" role="alert">
        <Icon name="alert" size={16} />
        <span>
          <FormattedMessage
            id="app.banner.disconnected"
            defaultMessage="<b>Lost the connection to the app.</b> It may have stopped or restarted, so what this page shows is not up to date. It reconnects by itself once the app runs again; after a restart, open the new link the app printed."
            description="Banner in web mode when the page's connection to the app process closed."
            values={{ b: (chunks) => <strong>{chunks}</strong> }}
          />
        </span>
      </div>
    );
  // Revoked is not offline: nothing written here would ever go out, so don't promise it.
  if (revoked)
    return (
      <div className="offline-banner revoked-banner" role="alert">
        <Icon name="alert" size={16} />
        <span>
          <FormattedMessage
            id="app.banner.revoked"
            defaultMessage="<b>This device was revoked</b> from another device of your wallet. The messages already here stay readable, but this device can no longer send or receive through this relay. To use your wallet here again, import it into a new profile; it gets a new device key."
            description="Banner when another device of the same wallet revoked this device."
            values={{ b: (chunks) => <strong>{chunks}</strong> }}
          />
        </span>
      </div>
    );
  if (online) return null;
  return (
    <div className="offline-banner" role="status">
      <Icon name="wifi" size={16} />
      <span>
        <FormattedMessage
          id="app.banner.offline"
          defaultMessage="<b>Offline</b> — {reason} Messages you write wait on this computer and go out when it is back{waiting, plural, =0 {.} one {: # waiting.} other {: # waiting.}}"
          description="Banner while the relay cannot be reached. reason is a sentence saying why; waiting is the number of messages not yet sent."
          values={{
            b: (chunks) => <strong>{chunks}</strong>,
            reason: lastError ? translateError(intl, lastError) : intl.formatMessage(errorMessages.network),
            waiting,
          }}
        />
      </span>
      <ErrorDetails detail={detail} />
      <button
        type="button"
        className="btn btn-secondary btn-sm banner-action"
        disabled={retry.busy}
        onClick={() => void retry.run()}
      >
        {retry.busy ? (
          <FormattedMessage
            id="app.banner.retrying"
            defaultMessage="Trying…"
            description="The Retry now button of the offline banner while it tries to reach the relay."
          />
        ) : (
          <FormattedMessage
            id="app.banner.retry"
            defaultMessage="Retry now"
            description="Button in the offline banner: try to reach the relay at once."
          />
        )}
      </button>
    </div>
  );
}
