import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** Space kept between a popover and the window's edge, and between it and its button. */
const EDGE = 8;
const GAP = 4;

/**
 * Where a popover of `size` goes next to `anchor`: below it, or above when there is no room
 * below; lined up with the anchor's right edge (left edge with `align: 'start'`); always whole
 * inside a window of `view`.
 */
export function placePopover(
  anchor: DOMRect,
  size: { width: number; height: number },
  view: { width: number; height: number },
  align: 'start' | 'end' = 'end',
): { top: number; left: number } {
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
export function Popover({
  id,
  anchor,
  open,
  onClose,
  align,
  label,
  role,
  onKeyDown,
  className,
  children,
}: {
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
      // 'end' is the line's end: the anchor's left edge in right-to-left text.
      const rtl = getComputedStyle(el).direction === 'rtl';
      const side = rtl ? (align === 'end' ? 'start' : 'end') : align;
      const at = placePopover(
        a,
        { width: el.offsetWidth, height: el.offsetHeight },
        { width: window.innerWidth, height: window.innerHeight },
        side,
      );
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
    <div
      ref={ref}
      id={id}
      popover="manual"
      role={role}
      aria-label={label}
      className={className ? `popover ${className}` : 'popover'}
      onKeyDown={onKeyDown}
    >
      {children}
    </div>
  );
}
