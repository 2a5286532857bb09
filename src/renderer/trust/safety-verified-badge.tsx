import { useIntl } from 'react-intl';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';

/** "You verified this contact's safety number": a shield, not the relay operator's rosette. */
export function SafetyVerifiedBadge({ address }: { address: string }) {
  const verified = useStore((s) => s.trustByAddress[address.toLowerCase()]?.verified ?? false);
  const intl = useIntl();
  if (!verified) return null;
  return (
    <span
      className="safety-verified"
      title={intl.formatMessage({
        id: 'badge.safety.title',
        defaultMessage: 'You verified the safety number',
        description: 'Tooltip of the shield on a contact whose safety number you verified.',
      })}
      role="img"
      aria-label={intl.formatMessage({
        id: 'badge.safety.label',
        defaultMessage: 'Safety number verified',
        description: 'Accessible name of the safety-number shield.',
      })}
    >
      <Icon name="shieldCheck" size={15} />
    </span>
  );
}
