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
    <span className="count-badge" aria-label={`${count} ${label}`}>
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
