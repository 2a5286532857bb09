import { useEffect } from 'react';
import { call } from '../bridge/bridge.js';
import { useStore } from '../store.js';

/**
 * Tells main whether the window is on screen (while it is, the relay is tried again every few
 * seconds after it went away), and tries at once when the window gets the focus while offline:
 * someone just looked, and should not wait out a wait chosen while nobody did.
 */
export function useRelayRetries() {
  useEffect(() => {
    const report = () =>
      void call('app.visibility', { visible: document.visibilityState === 'visible' }).catch(() => undefined);
    const focused = () => {
      report();
      const s = useStore.getState();
      if (s.appReachable && s.status && !s.status.relay.connected && !s.status.relay.revoked)
        void s.syncNow().catch(() => undefined);
    };
    report();
    // an app started again knows nothing of this window yet
    const unsubscribe = useStore.subscribe((s, prev) => {
      if (s.appReachable && !prev.appReachable) report();
    });
    document.addEventListener('visibilitychange', report);
    window.addEventListener('focus', focused);
    return () => {
      unsubscribe();
      document.removeEventListener('visibilitychange', report);
      window.removeEventListener('focus', focused);
    };
  }, []);
}
