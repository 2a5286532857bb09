import { useIntl } from 'react-intl';
import { CopyButton } from '../components/copy-button.js';
import { PersonName, usePersonName } from './person-name.js';

/**
 * A person: their name (usePersonName), the full address on hover, and a button that copies the
 * address; the address is never spelled out twice.
 */
export function Person({ address, handle }: { address: string; handle?: string | null }) {
  const name = usePersonName(address, handle);
  const intl = useIntl();
  return (
    <span className="person-chip">
      <PersonName address={address} handle={handle} />
      <CopyButton
        text={address}
        label={intl.formatMessage(
          {
            id: 'person.copyAddress',
            defaultMessage: 'Copy {name}’s address',
            description: 'Button that copies a person’s wallet address; name is their handle or short address.',
          },
          { name },
        )}
        className="btn btn-ghost btn-sm"
      />
    </span>
  );
}
