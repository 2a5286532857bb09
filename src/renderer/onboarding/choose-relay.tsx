import { FormattedMessage, useIntl } from 'react-intl';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { RelayChooser } from './relay-chooser.js';

/** The relay step: where the sealed envelopes go. */
export function ChooseRelay() {
  const connectRelay = useStore((s) => s.connectRelay);
  const address = useStore((s) => s.status?.address);
  const action = useAction(connectRelay);
  const intl = useIntl();
  return (
    <section aria-labelledby="relay-title">
      <h1 id="relay-title">
        <FormattedMessage
          id="onboarding.relay.title"
          defaultMessage="Choose your relay"
          description="Heading of the relay step."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.relay.lead"
          defaultMessage="The relay passes sealed envelopes between people."
          description="What a relay is."
        />{' '}
        {address && (
          <FormattedMessage
            id="onboarding.relay.address"
            defaultMessage="Your address is <code>{address}</code>."
            description="Shows the new wallet address; keep the code tags."
            values={{
              address,
              code: (chunks) => (
                <code className="inline-code" dir="ltr">
                  {chunks}
                </code>
              ),
            }}
          />
        )}
      </p>
      <RelayChooser
        busy={action.busy}
        error={action.error}
        errorDetail={action.errorDetail}
        submitLabel={intl.formatMessage({
          id: 'onboarding.relay.connect',
          defaultMessage: 'Connect',
          description: 'Button that connects to the chosen relay.',
        })}
        onSubmit={(mode, url, fp, invite) => void action.run(mode, url, fp, invite)}
      />
    </section>
  );
}
