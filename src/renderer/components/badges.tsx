import { Icon } from './icon.js';

export function VerifiedBadge() {
  return (
    <span className="verified" title="Verified by the relay operator" role="img" aria-label="Verified">
      <Icon name="verified" size={15} />
    </span>
  );
}

export function CountBadge({ count, label }: { count: number; label: string }) {
  if (count <= 0) return null;
  return (
    // role="img": a bare span may not carry aria-label, and "3" alone would not say 3 of what.
    <span className="count-badge" role="img" aria-label={`${count} ${label}`}>
      {count > 99 ? '99+' : count}
    </span>
  );
}

/** Marks a post made with one of the group's bot tokens. */
export function BotBadge() {
  return (
    <span className="pill pill-bot">
      <Icon name="bot" size={12} /> Bot
    </span>
  );
}
