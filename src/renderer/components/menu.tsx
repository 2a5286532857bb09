import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Icon, type IconName } from './icon.js';

export interface MenuItem {
  label: string;
  icon?: IconName;
  danger?: boolean;
  onSelect: () => void;
}

/** Space kept between a popover and the window's edge, and between it and its button. */
const EDGE = 8;
const GAP = 4;

/**
 * Where a popover of `size` goes next to `anchor`: below it, or above when there is no room
 * below; lined up with the anchor's right edge (left edge with `align: 'start'`); always whole
 * inside a window of `view`.
 */
export function placePopover(anchor: DOMRect, size: { width: number; height: number }, view: { width: number; height: number }, align: 'start' | 'end' = 'end'): { top: number; left: number } {
  const below = anchor.bottom + GAP;
  const above = anchor.top - GAP - size.height;
  const top = below + size.height <= view.height - EDGE || above < EDGE ? below : above;
  const left = align === 'end' ? anchor.right - size.width : anchor.left;
  const clamp = (v: number, max: number) => Math.max(EDGE, Math.min(v, max - EDGE));
  return { top: clamp(top, view.height - size.height), left: clamp(left, view.width - size.width) };
}

/**
 * The one popover every menu uses. It lives in the browser's top layer (the Popover API), so
 * nothing on the page can draw over it: not the next message row, whose transform gives it a
 * stacking context of its own, nor a scrolling list that would clip it. Placed by
 * placePopover before it is painted, it stays inside the window. A "manual" popover, so that
 * closing is this code's alone: a press outside it and its anchor, scrolling, resizing, or
 * the owner (Escape).
 */
export function Popover({ id, anchor, open, onClose, align, label, role, onKeyDown, className, children }: {
  id: string;
  anchor: React.RefObject<HTMLElement | null>;
  open: boolean;
  onClose: () => void;
  align?: 'start' | 'end';
  label: string;
  role?: 'menu' | 'dialog';
  onKeyDown?: (e: KeyboardEvent<HTMLDivElement>) => void;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useLayoutEffect(() => {
    closeRef.current = onClose;
  });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (!open) {
      if (el.matches(':popover-open')) el.hidePopover();
      return;
    }
    if (!el.matches(':popover-open')) el.showPopover();
    const a = anchor.current?.getBoundingClientRect();
    if (a) {
      const at = placePopover(a, { width: el.offsetWidth, height: el.offsetHeight }, { width: window.innerWidth, height: window.innerHeight }, align);
      el.style.top = `${at.top}px`;
      el.style.left = `${at.left}px`;
    }
    const away = () => closeRef.current();
    const outside = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!el.contains(t) && !anchor.current?.contains(t)) away();
    };
    // what it points at moved (the list scrolled, the window changed size): close, as native menus do
    const scrolled = (e: Event) => {
      if (!el.contains(e.target as Node)) away();
    };
    window.addEventListener('resize', away);
    document.addEventListener('scroll', scrolled, true);
    document.addEventListener('pointerdown', outside, true);
    return () => {
      window.removeEventListener('resize', away);
      document.removeEventListener('scroll', scrolled, true);
      document.removeEventListener('pointerdown', outside, true);
    };
  }, [open, anchor, align]);
  return (
    <div ref={ref} id={id} popover="manual" role={role} aria-label={label} className={className ? `popover ${className}` : 'popover'} onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}

/**
 * A button that opens a menu of actions. Works with the mouse, and from the keyboard: Enter or
 * ↓ opens it, ↑/↓/Home/End move, Enter chooses, Escape closes it and returns to the button.
 */
export function Menu({ label, items, buttonClassName, icon = 'more', align = 'end' }: { label: string; items: MenuItem[]; buttonClassName?: string; icon?: IconName; align?: 'start' | 'end' }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const id = useId();
  const entries = () => Array.from(list.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
  useLayoutEffect(() => {
    if (open) entries()[0]?.focus();
  }, [open]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = entries();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      all[(at + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      all[e.key === 'Home' ? 0 : all.length - 1]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') close(false);
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className={buttonClassName ?? 'icon-btn icon-btn-sm'}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Icon name={icon} size={16} />
      </button>
      <Popover id={id} anchor={button} open={open} onClose={() => setOpen(false)} align={align} label={label} role="menu" onKeyDown={onKey} className="menu-list">
        <div ref={list} className="menu-items">
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={item.danger ? 'danger' : undefined}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
            >
              {item.icon && <Icon name={item.icon} size={15} />} {item.label}
            </button>
          ))}
        </div>
      </Popover>
    </>
  );
}
