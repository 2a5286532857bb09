import { useIntl } from 'react-intl';
import { useStore } from '../store.js';
import { Icon } from '../components/icon.js';

export function Toasts() {
  const toasts = useStore((s) => s.toasts);
  const dismissToast = useStore((s) => s.dismissToast);
  const intl = useIntl();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`}>
          <Icon name={t.tone === 'error' ? 'alert' : 'check'} size={16} />
          <span>{t.text}</span>
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
