import { FormattedMessage, useIntl } from 'react-intl';
import { Icon } from '../components/icon.js';

export function VerifiedBadge() {
  const intl = useIntl();
  return (
    <span
      className="verified"
      title={intl.formatMessage({
        id: 'badge.verified.title',
        defaultMessage: 'Verified by the relay operator',
        description: 'Tooltip of the badge on people the relay operator verified.',
      })}
      role="img"
      aria-label={intl.formatMessage({
        id: 'badge.verified.label',
        defaultMessage: 'Verified',
        description: 'Accessible name of the relay operator’s verified badge.',
      })}
    >
      <Icon name="verified" size={15} />
    </span>
  );
}

/** A count on a navigation item or list row; label is the whole accessible name with its plural ("3 unread messages"). */
export function CountBadge({ count, label }: { count: number; label: string }) {
  const intl = useIntl();
  if (count <= 0) return null;
  return (
    // role="img": a bare span may not carry aria-label, and "3" alone would not say 3 of what.
    <span className="count-badge" role="img" aria-label={label}>
      {count > 99
        ? intl.formatMessage(
            {
              id: 'badge.count.many',
              defaultMessage: '{max, number}+',
              description: 'A count badge over its maximum, e.g. “99+”.',
            },
            { max: 99 },
          )
        : intl.formatNumber(count)}
    </span>
  );
}

/** Marks a post made with one of the group's bot tokens. */
export function BotBadge() {
  return (
    <span className="pill pill-bot">
      <Icon name="bot" size={12} />{' '}
      <FormattedMessage id="badge.bot" defaultMessage="Bot" description="Marks a group post made with a bot token." />
    </span>
  );
}
