import { useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import type { InboxPolicy } from '../../shared/domain.js';
import { Avatar } from '../people/avatar.js';
import { CopyButton } from '../components/copy-button.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { NotificationSettings } from '../notifications/notification-settings.js';
import { TYPED_HANDLE, bareHandle } from '../../shared/identity-patterns.js';

/** The handle's sigil before the field: a symbol, the same in every language. */
const HANDLE_PREFIX = '@';
/** An example handle: a name, not a word to translate. */
const EXAMPLE_HANDLE = 'alice';
import { StakeChain } from '../stakes/stake-chain.js';
import { ExportBackup } from '../backup/export-backup.js';
import { SettingsApiKeys } from './settings-api-keys.js';
import { SettingsAppearance } from './settings-appearance.js';
import { SettingsDevices } from './settings-devices.js';
import { SettingsRelay } from './settings-relay.js';
import { SettingsSecurity } from './settings-security.js';
import { SettingsBlocked } from './settings-blocked.js';

export function Settings() {
  const loadSettings = useStore((s) => s.loadSettings);
  const showToast = useStore((s) => s.showToast);
  useEffect(() => {
    loadSettings().catch((e: Error) => showToast('error', e.message));
  }, [loadSettings, showToast]);
  return (
    <div className="page settings">
      <header className="page-header">
        <h1>
          <FormattedMessage id="settings.title" defaultMessage="Settings" description="Heading of the Settings page." />
        </h1>
      </header>
      <Profile />
      <SettingsSecurity />
      <Policy />
      <SettingsBlocked />
      <NotificationSettings />
      <SettingsRelay />
      <StakeChain />
      <SettingsDevices />
      <SettingsApiKeys />
      <ExportBackup />
      <SettingsAppearance />
    </div>
  );
}

function Profile() {
  const status = useStore((s) => s.status);
  const claimHandle = useStore((s) => s.claimHandle);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(claimHandle);
  const [handle, setHandle] = useState(status?.handle ?? '');
  const intl = useIntl();
  const handleLabel = intl.formatMessage({
    id: 'settings.profile.handle',
    defaultMessage: 'Handle',
    description: 'Label of the handle field in Settings.',
  });
  if (!status?.address) return null;
  const valid = TYPED_HANDLE.test(handle) && bareHandle(handle).toLowerCase() !== (status.handle ?? '').toLowerCase();
  return (
    <section className="card section" aria-labelledby="profile-title">
      <h2 id="profile-title">
        <FormattedMessage
          id="settings.profile.title"
          defaultMessage="Profile"
          description="Settings section: handle and address."
        />
      </h2>
      <div className="profile-head">
        <Avatar name={status.handle ?? status.address} seed={status.address} size={52} />
        <div>
          <div className="profile-name">
            {status.handle ? (
              <bdi dir="ltr">{HANDLE_PREFIX + status.handle}</bdi>
            ) : (
              <FormattedMessage
                id="settings.profile.noHandle"
                defaultMessage="No handle yet"
                description="Shown instead of a handle when none was claimed."
              />
            )}
          </div>
          <div className="row tight">
            <code className="inline-code" dir="ltr" data-copy-source={status.address}>
              {status.address}
            </code>
            <CopyButton
              text={status.address}
              label={intl.formatMessage({
                id: 'settings.profile.copyAddress',
                defaultMessage: 'Copy your address',
                description: 'Button that copies the own wallet address.',
              })}
            />
          </div>
        </div>
      </div>
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(handle)).ok)
            showToast(
              'success',
              intl.formatMessage({
                id: 'settings.profile.saved',
                defaultMessage: 'Handle saved.',
                description: 'Notice after claiming or changing the handle.',
              }),
            );
        }}
      >
        <label className="field grow">
          <span className="field-label">{handleLabel}</span>
          <span className="input-prefix" dir="ltr">
            <span aria-hidden="true">{HANDLE_PREFIX}</span>
            <input
              aria-label={handleLabel}
              value={bareHandle(handle)}
              onChange={(e) => setHandle(e.target.value)}
              spellCheck={false}
              autoCapitalize="off"
              placeholder={EXAMPLE_HANDLE}
            />
          </span>
        </label>
        <button type="submit" className="btn btn-secondary" disabled={!valid || action.busy}>
          {status.handle
            ? intl.formatMessage({
                id: 'settings.profile.change',
                defaultMessage: 'Change handle',
                description: 'Button that changes the handle.',
              })
            : intl.formatMessage({
                id: 'settings.profile.claim',
                defaultMessage: 'Claim handle',
                description: 'Button that claims a first handle.',
              })}
        </button>
      </form>
      <FormError error={action.error} />
    </section>
  );
}

/** A ticker, the same in every language. */
const STAKE_CURRENCY = 'ETH';

const policyText = defineMessages({
  requestTitle: {
    id: 'settings.policy.request.title',
    defaultMessage: 'Ask me first',
    description: 'Inbox policy: strangers’ messages wait as requests.',
  },
  requestText: {
    id: 'settings.policy.request.text',
    defaultMessage: 'New people land in Requests. You accept, decline or block.',
    description: 'Explains the “Ask me first” policy.',
  },
  stakeTitle: {
    id: 'settings.policy.stake.title',
    defaultMessage: 'Ask for a stake',
    description: 'Inbox policy: strangers pay a refundable stake.',
  },
  stakeText: {
    id: 'settings.policy.stake.text',
    defaultMessage: 'New people must put down a small refundable stake before their message is delivered.',
    description: 'Explains the stake policy.',
  },
  blockTitle: {
    id: 'settings.policy.block.title',
    defaultMessage: 'Only contacts',
    description: 'Inbox policy: only accepted contacts get through.',
  },
  blockText: {
    id: 'settings.policy.block.text',
    defaultMessage: 'Messages from people you have not accepted are refused.',
    description: 'Explains the “Only contacts” policy.',
  },
});

const POLICIES = [
  { value: 'request', title: policyText.requestTitle, text: policyText.requestText },
  { value: 'stake-gate', title: policyText.stakeTitle, text: policyText.stakeText },
  { value: 'block', title: policyText.blockTitle, text: policyText.blockText },
] as const;

function Policy() {
  const policy = useStore((s) => s.settings.policy);
  const setPolicy = useStore((s) => s.setPolicy);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(setPolicy);
  const [choice, setChoice] = useState<InboxPolicy['unknownSenders']>('request');
  const [stake, setStake] = useState('0.01');
  const intl = useIntl();
  const title = intl.formatMessage({
    id: 'settings.policy.title',
    defaultMessage: 'Messages from new people',
    description: 'Settings section: what happens to messages from strangers.',
  });
  const stakeLabel = intl.formatMessage({
    id: 'settings.policy.stakeAmount',
    defaultMessage: 'Stake amount',
    description: 'Label of the stake amount field.',
  });
  // Follow the saved policy when it loads or changes, not each time Settings reloads it: a
  // reload with the same values must not undo a choice the user has not saved yet.
  const savedChoice = policy?.unknownSenders;
  const savedStake = policy?.stake;
  useEffect(() => {
    if (savedChoice) {
      setChoice(savedChoice);
      setStake(savedStake ?? '0.01');
    }
  }, [savedChoice, savedStake]);
  const stakeOk = /^(0|[1-9][0-9]{0,17})(\.[0-9]{1,18})?$/.test(stake) && Number(stake) > 0;
  const dirty =
    policy && (choice !== policy.unknownSenders || (choice === 'stake-gate' && stake !== (policy.stake ?? '0.01')));
  const stakeBad = choice === 'stake-gate' && !stakeOk;
  return (
    <section className="card section" aria-labelledby="policy-title">
      <h2 id="policy-title">{title}</h2>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run({ unknownSenders: choice, ...(choice === 'stake-gate' ? { stake } : {}) })).ok)
            showToast(
              'success',
              intl.formatMessage({
                id: 'settings.policy.saved',
                defaultMessage: 'Inbox policy saved.',
                description: 'Notice after saving the inbox policy.',
              }),
            );
        }}
      >
        <div className="choice-list compact" role="radiogroup" aria-label={title}>
          {POLICIES.map((p) => (
            <label key={p.value} className={choice === p.value ? 'choice selected' : 'choice'}>
              {/* until the saved policy is known, a choice would be overwritten when it arrives */}
              <input
                type="radio"
                name="policy"
                checked={choice === p.value}
                onChange={() => setChoice(p.value)}
                aria-label={intl.formatMessage(p.title)}
                disabled={!policy}
              />
              <span className="choice-text">
                <span className="choice-title">{intl.formatMessage(p.title)}</span>
                <span className="choice-desc">{intl.formatMessage(p.text)}</span>
              </span>
            </label>
          ))}
        </div>
        {choice === 'stake-gate' && (
          <label className="field narrow-field">
            <span className="field-label">{stakeLabel}</span>
            <span className="input-suffix" dir="ltr">
              <input
                aria-label={stakeLabel}
                value={stake}
                onChange={(e) => setStake(e.target.value.trim())}
                inputMode="decimal"
              />
              <span aria-hidden="true">{STAKE_CURRENCY}</span>
            </span>
            {!stakeOk && (
              <span className="field-hint danger" id="stake-problem">
                <FormattedMessage
                  id="settings.policy.stakeInvalid"
                  defaultMessage="Enter an amount like {example}."
                  description="Error under an invalid stake amount; example is 0.01 (amounts are typed with a dot)."
                  values={{ example: '0.01' }}
                />
              </span>
            )}
          </label>
        )}
        <FormError error={action.error} />
        <div className="row">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!dirty || action.busy || stakeBad}
            aria-describedby={stakeBad ? 'stake-problem' : !dirty ? 'policy-unchanged' : undefined}
          >
            <FormattedMessage
              id="settings.policy.save"
              defaultMessage="Save policy"
              description="Button that saves the inbox policy."
            />
          </button>
          {!dirty && !stakeBad && (
            <span className="field-hint" id="policy-unchanged">
              <FormattedMessage
                id="settings.policy.unchanged"
                defaultMessage="Nothing to save: this is the policy in use."
                description="Why Save policy is disabled."
              />
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
