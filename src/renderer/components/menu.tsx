import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Icon, type IconName } from './icon.js';
import { Popover } from './popover.js';

export interface MenuItem {
  label: string;
  icon?: IconName;
  danger?: boolean;
  onSelect: () => void;
}

/**
 * A button that opens a menu of actions. Works with the mouse, and from the keyboard: Enter or
 * ↓ opens it, ↑/↓/Home/End move, Enter chooses, Escape closes it and returns to the button.
 */
export function Menu({
  label,
  items,
  buttonClassName,
  icon = 'more',
  align = 'end',
}: {
  label: string;
  items: MenuItem[];
  buttonClassName?: string;
  icon?: IconName;
  align?: 'start' | 'end';
}) {
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
      <Popover
        id={id}
        anchor={button}
        open={open}
        onClose={() => setOpen(false)}
        align={align}
        label={label}
        role="menu"
        onKeyDown={onKey}
        className="menu-list"
      >
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
