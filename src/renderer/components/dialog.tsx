import { useIntl } from 'react-intl';
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from './icon.js';

const FOCUSABLE =
  'button:not(:disabled), a[href], input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/**
 * Tab past either end of a modal wraps round inside it. showModal() makes the page behind inert,
 * but Chromium still lets Tab leave the last control for the browser itself, and the focus is lost.
 */
function keepFocusInside(e: KeyboardEvent<HTMLDialogElement>): void {
  if (e.key !== 'Tab') return;
  const dialog = e.currentTarget;
  // A radio group is one Tab stop, its checked radio, so the others are never the first or last.
  const offStop = (el: HTMLElement) =>
    el instanceof HTMLInputElement &&
    el.type === 'radio' &&
    !el.checked &&
    dialog.querySelector(`input[type="radio"][name="${el.name}"]:checked`) !== null;
  const controls = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.checkVisibility() && !offStop(el),
  );
  if (controls.length === 0) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const active = document.activeElement;
  if (e.shiftKey && (active === first || active === dialog)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}

/** A native modal <dialog>: the page behind is inert, Escape closes it, and the dialog role comes with the platform. */
export function Dialog({
  title,
  open,
  onClose,
  children,
  wide,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const intl = useIntl();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-label={title}
      onClose={onClose}
      onCancel={onClose}
      onKeyDown={keepFocusInside}
    >
      {open && (
        <>
          <header className="dialog-header">
            <h2>{title}</h2>
            <button
              type="button"
              className="icon-btn"
              aria-label={intl.formatMessage({
                id: 'dialog.close',
                defaultMessage: 'Close',
                description: 'Button that closes a dialog.',
              })}
              onClick={onClose}
            >
              <Icon name="x" />
            </button>
          </header>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  );
}
