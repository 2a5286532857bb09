import { FormattedMessage } from 'react-intl';
import type { ReactNode } from 'react';
import { Icon, type IconName } from '../components/icon.js';

/** The card with the app's name that stands alone before the app opens (first use, unlock). */
export function WelcomeCard({ icon, narrow, children }: { icon: IconName; narrow?: boolean; children: ReactNode }) {
  return (
    <main className="onboarding">
      <div className={narrow ? 'onboarding-card narrow' : 'onboarding-card'}>
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            <Icon name={icon} size={20} />
          </span>
          <span className="brand-name">
            <FormattedMessage
              id="app.name"
              defaultMessage="Relay Messenger"
              description="The app's name on the first screens."
            />
          </span>
        </div>
        {children}
      </div>
    </main>
  );
}
