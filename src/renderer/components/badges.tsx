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
    // The word rides along as hidden text, not aria-label: a span has no role to carry a label, and the row's name is its content.
    <span className="count-badge">
      {count > 99 ? '99+' : count}
      <span className="sr-only"> {label}</span>
    </span>
  );
}
