import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CopyButton } from '../components/copy-button.js';
import { ErrorDetails } from '../components/error-details.js';
import { FormError } from '../components/form-error.js';
import { Switch } from '../components/switch.js';
import { translateError } from '../i18n/error-messages.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { RelayChooser } from '../onboarding/relay-chooser.js';

const ELLIPSIS = '…';

/** The relay this wallet uses, switching to another, and the relay this computer may run and share. */
export function SettingsRelay() {
  const relay = useStore((s) => s.status?.relay);
  const setLocalRelay = useStore((s) => s.setLocalRelay);
  const setLanSharing = useStore((s) => s.setLanSharing);
  const switchRelay = useStore((s) => s.switchRelay);
  const showToast = useStore((s) => s.showToast);
  const local = useAction(setLocalRelay);
  const lan = useAction(setLanSharing);
  const switching = useAction(switchRelay);
  const [changing, setChanging] = useState(false);
  const intl = useIntl();
  if (!relay) return null;
  const modeText =
    relay.mode === 'local'
      ? intl.formatMessage({
          id: 'settings.relay.mode.local',
          defaultMessage: 'This computer',
          description: 'Which relay: the one running on this computer.',
        })
      : relay.mode === 'lan'
        ? intl.formatMessage({
            id: 'settings.relay.mode.lan',
            defaultMessage: 'A relay on your network',
            description: 'Which relay: one shared on the local network.',
          })
        : relay.mode === 'url'
          ? intl.formatMessage({
              id: 'settings.relay.mode.url',
              defaultMessage: 'A relay address',
              description: 'Which relay: one given by its web address.',
            })
          : intl.formatMessage({
              id: 'settings.relay.mode.none',
              defaultMessage: 'Not chosen',
              description: 'Which relay: none chosen yet.',
            });
  const runLabel = intl.formatMessage({
    id: 'settings.relay.run',
    defaultMessage: 'Run a relay on this computer',
    description: 'Switch that starts a relay inside the app.',
  });
  const shareLabel = intl.formatMessage({
    id: 'settings.relay.share',
    defaultMessage: 'Share on my network',
    description: 'Switch that lets others on the local network use this computer’s relay.',
  });
  const stateText = relay.revoked
    ? intl.formatMessage({
        id: 'settings.relay.state.revoked',
        defaultMessage: 'This device was revoked',
        description: 'Relay status: this device was revoked by another device of the wallet.',
      })
    : relay.connected
      ? intl.formatMessage({
          id: 'settings.relay.state.connected',
          defaultMessage: 'Connected',
          description: 'Relay status: connected.',
        })
      : relay.lastError
        ? intl.formatMessage(
            {
              id: 'settings.relay.state.offlineBecause',
              defaultMessage: 'Offline: {reason}',
              description: 'Relay status: offline, with the reason as a sentence.',
            },
            { reason: translateError(intl, relay.lastError) },
          )
        : intl.formatMessage({
            id: 'settings.relay.state.offline',
            defaultMessage: 'Offline',
            description: 'Relay status: offline.',
          });
  return (
    <section className="card section" aria-labelledby="relay-title">
      <h2 id="relay-title">
        <FormattedMessage
          id="settings.relay.title"
          defaultMessage="Relay"
          description="Settings section about the relay."
        />
      </h2>
      <dl className="facts">
        <div>
          <dt>
            <FormattedMessage
              id="settings.relay.connectedTo"
              defaultMessage="Connected to"
              description="Label of which relay this app uses."
            />
          </dt>
          <dd>
            {modeText}
            {relay.url && (
              <code className="inline-code" dir="ltr">
                {relay.url}
              </code>
            )}
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage
              id="settings.relay.status"
              defaultMessage="Status"
              description="Label of the relay connection state."
            />
          </dt>
          <dd>
            <span className={relay.connected ? 'conn online' : 'conn offline'}>
              <span className="dot" aria-hidden="true" />
              {stateText}
            </span>
            {!relay.connected && !relay.revoked && <ErrorDetails detail={relay.lastErrorDetail} />}
          </dd>
        </div>
      </dl>
      {changing ? (
        <div className="relay-switch">
          <p className="subtle small">
            <FormattedMessage
              id="settings.relay.switchNote"
              defaultMessage="You sign in to the new relay with your wallet. Messages waiting to be sent go out there, and your conversations stay on this computer. A handle belongs to one relay: claim yours again on the new one, under Profile."
              description="Explains what switching relays does."
            />
          </p>
          <RelayChooser
            busy={switching.busy}
            // the switch is tried before it is made: a failed one changed nothing
            error={
              switching.error && relay.url
                ? intl.formatMessage(
                    {
                      id: 'settings.relay.switchFailed',
                      defaultMessage: '{error} You are still on {url}.',
                      description:
                        'Error after a failed relay switch; error is a sentence, url the relay still in use.',
                    },
                    { error: switching.error, url: relay.url },
                  )
                : switching.error
            }
            errorDetail={switching.errorDetail}
            submitLabel={intl.formatMessage({
              id: 'settings.relay.switch',
              defaultMessage: 'Switch relay',
              description: 'Button that switches to the chosen relay.',
            })}
            initialMode={relay.mode === 'local' ? 'url' : 'local'}
            onCancel={() => setChanging(false)}
            onSubmit={async (mode, url, fp, invite) => {
              if ((await switching.run(mode, url, fp, invite)).ok) {
                setChanging(false);
                showToast(
                  'success',
                  intl.formatMessage({
                    id: 'settings.relay.switched',
                    defaultMessage: 'Switched relay.',
                    description: 'Notice after switching relays.',
                  }),
                );
              }
            }}
          />
        </div>
      ) : (
        <div className="row">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setChanging(true)}>
            <FormattedMessage
              id="settings.relay.change"
              defaultMessage="Change relay"
              description="Button that opens the relay switch."
            />
          </button>
        </div>
      )}
      <div className="toggle-row">
        <div>
          <div className="toggle-title">{runLabel}</div>
          <div className="subtle small">
            {relay.local.running
              ? intl.formatMessage(
                  {
                    id: 'settings.relay.runningAt',
                    defaultMessage: 'Running at {url}',
                    description: 'State of the built-in relay with its address.',
                  },
                  { url: <bdi dir="ltr">{relay.local.url ?? ELLIPSIS}</bdi> },
                )
              : intl.formatMessage({
                  id: 'settings.relay.stopped',
                  defaultMessage: 'Stopped',
                  description: 'State of the built-in relay: not running.',
                })}
          </div>
        </div>
        <Switch label={runLabel} checked={relay.local.running} busy={local.busy} onChange={(v) => void local.run(v)} />
      </div>
      <FormError error={local.error} />
      <div className="toggle-row">
        <div>
          <div className="toggle-title">{shareLabel}</div>
          <div className="subtle small">
            <FormattedMessage
              id="settings.relay.shareHint"
              defaultMessage="Let people on the same Wi-Fi or office network use this relay."
              description="Explains network sharing."
            />
          </div>
        </div>
        <Switch
          label={shareLabel}
          checked={relay.local.lan !== null}
          busy={lan.busy}
          disabled={!relay.local.running}
          disabledReason={intl.formatMessage(
            {
              id: 'settings.relay.shareWhy',
              defaultMessage: 'Turn on “{run}” first: this shares that relay.',
              description: 'Why network sharing is off; run is the name of the other switch.',
            },
            { run: runLabel },
          )}
          onChange={(v) => void lan.run(v)}
        />
      </div>
      <FormError error={lan.error} />
      {relay.local.lan && (
        <div
          className="lan-box"
          aria-label={intl.formatMessage({
            id: 'settings.relay.lanLabel',
            defaultMessage: 'Network sharing details',
            description: 'Accessible name of the box with the addresses to share.',
          })}
        >
          <p className="small">
            <FormattedMessage
              id="settings.relay.lanHint"
              defaultMessage="Give these to people who want to connect. They choose “A relay on my network” and enter both."
              description="Explains the shared addresses and fingerprint; the quoted choice is relayChooser.mode.lan."
            />
          </p>
          {relay.local.lan.urls.map((u) => (
            <div key={u} className="row tight">
              <code className="inline-code" dir="ltr" data-copy-source={u}>
                {u}
              </code>
              <CopyButton
                text={u}
                label={intl.formatMessage(
                  {
                    id: 'settings.relay.copyUrl',
                    defaultMessage: 'Copy {url}',
                    description: 'Button that copies one of the relay’s addresses.',
                  },
                  { url: u },
                )}
              />
            </div>
          ))}
          <div className="row tight">
            <span className="small subtle">
              <FormattedMessage
                id="settings.relay.fingerprint"
                defaultMessage="Fingerprint"
                description="Label of the relay certificate’s fingerprint."
              />
            </span>
            <code className="inline-code fingerprint" dir="ltr" data-copy-source={relay.local.lan.fingerprint}>
              {relay.local.lan.fingerprint}
            </code>
            <CopyButton
              text={relay.local.lan.fingerprint}
              label={intl.formatMessage({
                id: 'settings.relay.copyFingerprint',
                defaultMessage: 'Copy fingerprint',
                description: 'Button that copies the fingerprint.',
              })}
            />
          </div>
        </div>
      )}
    </section>
  );
}
