import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { useStore } from '../store.js';
import { Icon } from '../components/icon.js';

export function Toasts() {
  const toasts = useStore((s) => s.toasts);
  const dismissToast = useStore((s) => s.dismissToast);
  const intl = useIntl();
  const actions = useRef(new Map<number, HTMLButtonElement>());
  const focused = useRef(new Set<number>());
  useEffect(() => {
    for (const t of toasts)
      if (t.action?.focus && !focused.current.has(t.id)) {
        focused.current.add(t.id);
        actions.current.get(t.id)?.focus();
      }
  }, [toasts]);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`} data-toast={t.id}>
          <Icon name={t.tone === 'error' ? 'alert' : 'check'} size={16} />
          <span>{t.text}</span>
          {t.action && (
            <button
              type="button"
              className="btn btn-link btn-sm toast-action"
              ref={(el) => {
                if (el) actions.current.set(t.id, el);
                else actions.current.delete(t.id);
              }}
              onClick={() => {
                dismissToast(t.id);
                t.action!.run();
              }}
            >
              {t.action.label}
            </button>
          )}
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            aria-label={intl.formatMessage({
              id: 'toast.dismiss',
              defaultMessage: 'Dismiss',
              description: 'Button that closes a notice.',
            })}
            onClick={() => dismissToast(t.id)}
          >
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
