import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { translateError } from '../i18n/error-messages.js';
import { useEffect, useRef, useState } from 'react';
import { FormError } from '../components/form-error.js';
import { fingerprintProblem, parseInviteLink, parseRelayUrl, withScheme } from '../../shared/relay-address.js';
import { isolate } from '../i18n/isolate.js';
import { Icon, type IconName } from '../components/icon.js';

type Mode = 'local' | 'lan' | 'url';

// Example addresses: data, the same in every language.
const EXAMPLE_LAN_URL = 'https://192.168.1.20:7443';
const EXAMPLE_URL = 'https://relay.example.org';

const text = defineMessages({
  localTitle: {
    id: 'relayChooser.mode.local',
    defaultMessage: 'This computer',
    description: 'Relay choice: run a relay inside the app.',
  },
  localText: {
    id: 'relayChooser.mode.localText',
    defaultMessage:
      'Run a relay inside the app. Best for trying things out and for sharing with people on your network.',
    description: 'Explains the “This computer” relay choice.',
  },
  lanTitle: {
    id: 'relayChooser.mode.lan',
    defaultMessage: 'A relay on my network',
    description: 'Relay choice: a relay someone shares on the local network.',
  },
  lanText: {
    id: 'relayChooser.mode.lanText',
    defaultMessage: 'Someone nearby shares their relay. You need its address and fingerprint.',
    description: 'Explains the network relay choice.',
  },
  urlTitle: {
    id: 'relayChooser.mode.url',
    defaultMessage: 'A relay address',
    description: 'Relay choice: a relay reached by its URL.',
  },
  urlText: {
    id: 'relayChooser.mode.urlText',
    defaultMessage: 'A relay run by your team or a provider, reached by its URL.',
    description: 'Explains the relay address choice.',
  },
  noScheme: {
    id: 'relayChooser.noScheme',
    defaultMessage: '“{typed}” has no scheme: a relay address starts with http:// or https://, like {suggestion}.',
    description:
      'Under the relay address field when the address lacks http:// or https://; typed is what was typed, suggestion the same address with the scheme the app would use (http:// for this computer, https:// elsewhere).',
  },
  invite: {
    id: 'relayChooser.invite',
    defaultMessage: 'Invite code (if you have one)',
    description: 'Label of the optional invite code field of the relay step.',
  },
  haveInvite: {
    id: 'relayChooser.haveInvite',
    defaultMessage: 'I have an invite code',
    description: 'Button on the relay step that shows the optional invite code field.',
  },
  inviteHint: {
    id: 'relayChooser.inviteHint',
    defaultMessage:
      'A relay that lets people join by invitation only asks for the code its owner gave you. Pasting the whole invite link into the address fills in everything.',
    description: 'Hint under the invite code field.',
  },
  inviteRead: {
    id: 'relayChooser.inviteRead',
    defaultMessage: 'Invite link read: the relay’s address, its fingerprint and your invite code are filled in.',
    description: 'Said (politely, to screen readers too) after an invite link was pasted into the relay address.',
  },
});

const OPTIONS: { mode: Mode; icon: IconName; title: MessageDescriptor; text: MessageDescriptor }[] = [
  { mode: 'local', icon: 'laptop', title: text.localTitle, text: text.localText },
  { mode: 'lan', icon: 'wifi', title: text.lanTitle, text: text.lanText },
  { mode: 'url', icon: 'globe', title: text.urlTitle, text: text.urlText },
];

export function RelayChooser({
  busy,
  error,
  errorDetail,
  submitLabel,
  initialMode = 'local',
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  error: string | null;
  errorDetail?: string | null;
  submitLabel: string;
  initialMode?: Mode;
  onSubmit: (mode: Mode, url?: string, fingerprint?: string, invite?: string) => void;
  onCancel?: () => void;
}) {
  const [mode, setMode] = useState<Mode>(initialMode);
  // A choice clicked with the mouse puts the cursor in the address box it opens; one reached
  // with the arrow keys leaves focus on the radio, so the arrows go on through the group and
  // typing lands in no field by surprise.
  const pointer = useRef(false);
  const focusUrl = useRef(false);
  const urlInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!focusUrl.current) return;
    focusUrl.current = false;
    urlInput.current?.focus();
  }, [mode]);
  const intl = useIntl();
  const fpLabel = intl.formatMessage({
    id: 'relayChooser.fingerprint',
    defaultMessage: 'Fingerprint',
    description: 'Label of the relay certificate fingerprint field.',
  });
  const [url, setUrl] = useState('');
  const [fingerprint, setFingerprint] = useState('');
  const [invite, setInvite] = useState('');
  // most relays ask for no code: the field waits behind a button, so the step fits a small window
  const [inviteAsked, setInviteAsked] = useState(false);
  const [linkRead, setLinkRead] = useState(false);
  // An invite link pasted (or typed) into the address carries the address, the pin and the
  // code: each goes to its own field, so what will be sent stays in view and can be corrected.
  const typeUrl = (text: string) => {
    const link = parseInviteLink(text);
    setLinkRead(link !== null);
    if (!link) return setUrl(text);
    setUrl(link.url);
    setInvite(link.invite);
    if (link.pin) {
      setFingerprint(link.pin);
      setMode('lan');
    }
  };
  const needsUrl = mode !== 'local';
  const parsed = parseRelayUrl(url);
  const suggestion = withScheme(url);
  const urlProblem =
    'url' in parsed
      ? null
      : suggestion
        ? intl.formatMessage(text.noScheme, { typed: isolate(url.trim(), intl), suggestion: isolate(suggestion, intl) })
        : translateError(intl, parsed.problem);
  const fpProblem = mode === 'lan' ? fingerprintProblem(fingerprint) : null;
  // Whatever keeps the button off is said under its field as it is typed, and the button points
  // to it (aria-describedby): a greyed-out Connect never leaves one guessing.
  const urlShown = needsUrl && urlProblem !== null;
  const fpShown = fpProblem !== null;
  const why = [urlShown ? 'relay-url-problem' : null, fpShown ? 'fingerprint-problem' : null].filter(Boolean).join(' ');
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(
          mode,
          needsUrl ? url.trim() : undefined,
          mode === 'lan' ? fingerprint.trim() : undefined,
          needsUrl && invite.trim() ? invite.trim() : undefined,
        );
      }}
    >
      <div
        className="choice-list"
        role="radiogroup"
        aria-label={intl.formatMessage({
          id: 'relayChooser.label',
          defaultMessage: 'Relay',
          description: 'Accessible name of the relay choice.',
        })}
      >
        {OPTIONS.map((o) => (
          <label
            key={o.mode}
            className={mode === o.mode ? 'choice selected' : 'choice'}
            onPointerDown={() => (pointer.current = true)}
          >
            <input
              type="radio"
              name="relay-mode"
              value={o.mode}
              checked={mode === o.mode}
              onChange={() => {
                focusUrl.current = pointer.current && o.mode !== 'local';
                pointer.current = false;
                setMode(o.mode);
              }}
              onKeyDown={() => (pointer.current = false)}
              aria-label={intl.formatMessage(o.title)}
            />
            <span className="choice-icon" aria-hidden="true">
              <Icon name={o.icon} size={20} />
            </span>
            <span className="choice-text">
              <span className="choice-title">
                {intl.formatMessage(o.title)}
                {o.mode === 'local' && (
                  <span className="pill">
                    <FormattedMessage
                      id="relayChooser.recommended"
                      defaultMessage="Recommended"
                      description="Tag on the recommended relay choice."
                    />
                  </span>
                )}
              </span>
              <span className="choice-desc">{intl.formatMessage(o.text)}</span>
            </span>
          </label>
        ))}
      </div>
      {needsUrl && (
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="relayChooser.url"
              defaultMessage="Relay URL"
              description="Label of the relay address field."
            />
          </span>
          <input
            dir="ltr"
            value={url}
            onChange={(e) => typeUrl(e.target.value)}
            placeholder={mode === 'lan' ? EXAMPLE_LAN_URL : EXAMPLE_URL}
            ref={urlInput}
            spellCheck={false}
            autoCapitalize="off"
            aria-invalid={url.trim() && urlProblem ? true : undefined}
            aria-describedby={urlShown ? 'relay-url-problem' : undefined}
          />
          {urlShown && (
            <span className={url.trim() ? 'field-problem' : 'field-hint'} id="relay-url-problem">
              {urlProblem}
            </span>
          )}
        </label>
      )}
      {mode === 'lan' && (
        <label className="field">
          <span className="field-label">{fpLabel}</span>
          <input
            dir="ltr"
            aria-label={fpLabel}
            aria-describedby={fpShown ? 'fingerprint-problem fingerprint-hint' : 'fingerprint-hint'}
            aria-invalid={fpShown && fingerprint.trim() ? true : undefined}
            value={fingerprint}
            onChange={(e) => setFingerprint(e.target.value)}
            placeholder={intl.formatMessage({
              id: 'relayChooser.fingerprintPlaceholder',
              defaultMessage: 'SHA-256 fingerprint shown by the sharing computer',
              description: 'Placeholder of the fingerprint field.',
            })}
            spellCheck={false}
            autoCapitalize="off"
          />
          {fpShown && (
            <span className={fingerprint.trim() ? 'field-problem' : 'field-hint'} id="fingerprint-problem">
              {fpProblem && translateError(intl, fpProblem)}
            </span>
          )}
          <span className="field-hint" id="fingerprint-hint">
            <FormattedMessage
              id="relayChooser.fingerprintHint"
              defaultMessage="The app checks the relay's certificate against it, so nobody else on the network can pretend to be that relay."
              description="Why the fingerprint is asked."
            />
          </span>
        </label>
      )}
      {needsUrl && !inviteAsked && !invite && (
        <div className="row">
          <button type="button" className="btn btn-link" onClick={() => setInviteAsked(true)}>
            {intl.formatMessage(text.haveInvite)}
          </button>
        </div>
      )}
      {needsUrl && (inviteAsked || invite !== '') && (
        <label className="field">
          <span className="field-label">{intl.formatMessage(text.invite)}</span>
          <input
            dir="ltr"
            value={invite}
            // the button that asked for this field is gone: the focus goes where the person is going
            autoFocus={inviteAsked}
            maxLength={64}
            onChange={(e) => setInvite(e.target.value)}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            aria-describedby="invite-hint"
          />
          <span className="field-hint" id="invite-hint">
            {intl.formatMessage(text.inviteHint)}
          </span>
        </label>
      )}
      {needsUrl && linkRead && (
        <p className="field-hint" role="status">
          {intl.formatMessage(text.inviteRead)}
        </p>
      )}
      <FormError error={error} detail={errorDetail} />
      <div className="row">
        <button
          type="submit"
          className="btn btn-primary btn-lg"
          disabled={busy || urlShown || fpProblem !== null}
          aria-describedby={why || undefined}
        >
          {busy
            ? intl.formatMessage({
                id: 'relayChooser.connecting',
                defaultMessage: 'Connecting…',
                description: 'Connect button while connecting.',
              })
            : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-ghost btn-lg" onClick={onCancel} disabled={busy}>
            <FormattedMessage
              id="relayChooser.cancel"
              defaultMessage="Cancel"
              description="Button that closes the relay switch without changing anything."
            />
          </button>
        )}
      </div>
    </form>
  );
}
