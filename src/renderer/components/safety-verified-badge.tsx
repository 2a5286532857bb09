import { Icon } from './icon.js';
import { useStore } from '../store/store.js';

/** "You verified this contact's safety number": a shield, not the relay operator's rosette. */
export function SafetyVerifiedBadge({ address }: { address: string }) {
  const verified = useStore((s) => s.trustByAddress[address.toLowerCase()]?.verified ?? false);
  if (!verified) return null;
  return (
    <span className="safety-verified" title="You verified the safety number" role="img" aria-label="Safety number verified">
      <Icon name="shieldCheck" size={15} />
    </span>
  );
}
