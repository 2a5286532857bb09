import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { SecretKeyList } from '../components/secret-key-list.js';
import { DescribedError } from '../i18n/described-error.js';
import { useStore } from '../store.js';

const ownRelay = defineMessages({
  grant: {
    id: 'settings.apiKeys.ownRelay',
    defaultMessage:
      'API keys are off for your account on this relay, and you run it: it is the one built into this app. Turn them on in a terminal, in the app’s folder: {command} — then create the key again.',
    description:
      'After creating an API key failed because the relay has not enabled them, when the relay is the one built into the app; {command} is a command line, shown as is',
  },
});

/** The operator's command that gives `address` developer API keys on the built-in relay at `dataDir`. */
function grantCommand(dataDir: string, address: string): string {
  const quoted = /^[\w./:-]+$/.test(dataDir) ? dataDir : `'${dataDir.replace(/'/g, `'\\''`)}'`;
  return `npm run relay -- admin --data ${quoted} grant ${address} developer-api`;
}

/** Settings → API keys: keys for scripts that act as this wallet on the relay. */
export function SettingsApiKeys() {
  const keys = useStore((s) => s.settings.apiKeys);
  const myDevice = useStore((s) => s.status?.deviceKey?.toLowerCase() ?? null);
  const mintApiKey = useStore((s) => s.mintApiKey);
  const relay = useStore((s) => s.status?.relay);
  const address = useStore((s) => s.status?.address ?? null);
  // On the built-in relay the person is its operator: "ask its operator" would send them in a
  // circle, so the refusal says what to run instead.
  const mint = async (label: string) => {
    try {
      return await mintApiKey(label);
    } catch (e) {
      const local = relay?.mode === 'local' ? relay.local.dataDir : undefined;
      if ((e as { code?: unknown }).code === 'entitlement-required' && local && address)
        // isolated: a command line keeps its own direction inside an Arabic sentence
        throw new DescribedError(ownRelay.grant, { command: `\u2068${grantCommand(local, address)}\u2069` });
      throw e;
    }
  };
  const revokeApiKey = useStore((s) => s.revokeApiKey);
  const intl = useIntl();
  const thisDevice = intl.formatMessage({
    id: 'settings.apiKeys.thisDevice',
    defaultMessage: 'This device',
    description: 'Tag on the API key this device uses.',
  });
  const signIn = intl.formatMessage({
    id: 'settings.apiKeys.deviceSignIn',
    defaultMessage: 'device sign-in',
    description: 'Name of the key a device signs in to the relay with.',
  });
  const device = intl.formatMessage({
    id: 'settings.apiKeys.device',
    defaultMessage: 'Device',
    description: 'Tag on an API key that belongs to another device.',
  });
  return (
    <section className="card section" aria-labelledby="keys-title">
      <h2 id="keys-title">
        <FormattedMessage
          id="settings.apiKeys.title"
          defaultMessage="API keys"
          description="Settings section of developer API keys."
        />
      </h2>
      <p className="subtle small">
        <FormattedMessage
          id="settings.apiKeys.lead"
          defaultMessage="For scripts and integrations that act as you on the relay. Treat a key like a password."
          description="Explains API keys."
        />
      </p>
      <SecretKeyList
        texts={{
          label: intl.formatMessage({
            id: 'settings.apiKeys.new.label',
            defaultMessage: 'New API key',
            description: 'Accessible name of the box showing a just-made API key.',
          }),
          note: intl.formatMessage({
            id: 'settings.apiKeys.new.note',
            defaultMessage: 'Copy this API key now. It is shown only once and cannot be recovered.',
            description: 'Warning above a just-made API key, which the relay shows only once.',
          }),
          value: intl.formatMessage({
            id: 'settings.apiKeys.new.value',
            defaultMessage: 'API key secret',
            description: 'Accessible name of the just-made API key’s value.',
          }),
          copy: intl.formatMessage({
            id: 'settings.apiKeys.new.copy',
            defaultMessage: 'Copy API key',
            description: 'Button that copies the just-made API key.',
          }),
        }}
        listLabel={intl.formatMessage({
          id: 'settings.apiKeys.list',
          defaultMessage: 'API keys',
          description: 'Accessible name of the list of API keys.',
        })}
        icon="key"
        items={keys.map((k) => {
          const mine = k.deviceKey?.toLowerCase() === myDevice;
          // This device's own key is how the app talks to the relay: revoke the device instead.
          // a device's own key is named by main ("device sign-in"): said in the person's language
          const name = k.deviceKey ? signIn : k.label;
          return { ...k, name, tag: k.deviceKey ? (mine ? thisDevice : device) : undefined, revocable: !mine };
        })}
        nameLabel={intl.formatMessage({
          id: 'settings.apiKeys.nameLabel',
          defaultMessage: 'Key label',
          description: 'Label of the name field for a new API key.',
        })}
        placeholder={intl.formatMessage({
          id: 'settings.apiKeys.placeholder',
          defaultMessage: 'CI notifier',
          description: 'Example name of an API key (placeholder).',
        })}
        nameRequired={false}
        mintLabel={intl.formatMessage({
          id: 'settings.apiKeys.create',
          defaultMessage: 'Create key',
          description: 'Button that makes a new API key.',
        })}
        mintIcon="plus"
        emptyText={intl.formatMessage({
          id: 'settings.apiKeys.empty',
          defaultMessage: 'No API keys yet.',
          description: 'Shown when there are no API keys.',
        })}
        onMint={mint}
        onRevoke={revokeApiKey}
      />
    </section>
  );
}
