import { FormattedMessage, useIntl } from 'react-intl';
import { useState } from 'react';
import { listTime } from '../i18n/format.js';
import { useAction } from '../shell/use-action.js';
import { FormError } from './form-error.js';
import { Icon, type IconName } from './icon.js';
import { SecretReveal, type SecretTexts } from './secret-reveal.js';

const ELLIPSIS = '…';

/** One key or token as the list shows it; the secret itself is never here, only its prefix. */
export interface SecretKeyItem {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt?: string | null;
  /** a short tag after the name, e.g. "This device" */
  tag?: string;
  /** false for a key that must not be revoked from here (the app's own) */
  revocable: boolean;
}

/**
 * Secrets that act for someone on the relay (API keys, a group's bot tokens): the list with
 * Revoke, a form to mint a new one, and the new secret shown once with Copy.
 */
export function SecretKeyList({
  texts,
  listLabel,
  icon,
  items,
  nameLabel,
  placeholder,
  nameRequired,
  mintLabel,
  mintIcon,
  emptyText,
  onMint,
  onRevoke,
}: {
  /** the sentences shown with a new secret, whole messages from the caller */
  texts: SecretTexts;
  listLabel: string;
  icon: IconName;
  items: SecretKeyItem[];
  nameLabel: string;
  placeholder: string;
  nameRequired: boolean;
  mintLabel: string;
  mintIcon: IconName;
  emptyText: string;
  onMint: (name: string) => Promise<string>;
  onRevoke: (id: string) => Promise<void>;
}) {
  const mint = useAction(onMint);
  const revoke = useAction(onRevoke);
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const intl = useIntl();
  return (
    <>
      {secret && <SecretReveal secret={secret} texts={texts} />}
      <ul className="plain-list" aria-label={listLabel}>
        {items.length === 0 && <li className="subtle small">{emptyText}</li>}
        {items.map((k) => (
          <li key={k.id} className="device-row">
            <Icon name={icon} size={18} />
            <div className="grow">
              <div>
                {k.name ?? <Unnamed />}{' '}
                <code className="inline-code" dir="ltr">
                  {k.prefix}
                  {ELLIPSIS}
                </code>{' '}
                {k.tag && <span className="pill">{k.tag}</span>}
              </div>
              <div className="subtle small">
                {k.revokedAt
                  ? intl.formatMessage(
                      {
                        id: 'secretKeys.revoked',
                        defaultMessage: 'Revoked {when}',
                        description: 'When a key or token was revoked; when is a short time or date.',
                      },
                      { when: listTime(k.revokedAt, intl) },
                    )
                  : k.lastUsedAt
                    ? intl.formatMessage(
                        {
                          id: 'secretKeys.createdUsed',
                          defaultMessage: 'Created {created} · last used {used}',
                          description: 'When a key was made and last used; both are short times or dates.',
                        },
                        { created: listTime(k.createdAt, intl), used: listTime(k.lastUsedAt, intl) },
                      )
                    : intl.formatMessage(
                        {
                          id: 'secretKeys.created',
                          defaultMessage: 'Created {created}',
                          description: 'When a key or token was made.',
                        },
                        { created: listTime(k.createdAt, intl) },
                      )}
              </div>
            </div>
            {!k.revokedAt && k.revocable && (
              <button
                type="button"
                className="btn btn-danger-ghost btn-sm"
                onClick={() => void revoke.run(k.id)}
                disabled={revoke.busy}
                aria-label={intl.formatMessage(
                  {
                    id: 'secretKeys.revokeLabel',
                    defaultMessage: 'Revoke {name}',
                    description: 'Accessible name of a key’s Revoke button; name is its name or prefix.',
                  },
                  { name: k.name ?? k.prefix },
                )}
              >
                <FormattedMessage
                  id="secretKeys.revoke"
                  defaultMessage="Revoke"
                  description="Button that revokes a key or token."
                />
              </button>
            )}
          </li>
        ))}
      </ul>
      <FormError error={revoke.error} />
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await mint.run(name.trim());
          if (r.ok) {
            setSecret(r.value);
            setName('');
          }
        }}
      >
        <label className="field grow">
          <span className="field-label">{nameLabel}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder={placeholder} maxLength={64} />
        </label>
        <button type="submit" className="btn btn-secondary" disabled={(nameRequired && !name.trim()) || mint.busy}>
          <Icon name={mintIcon} size={15} /> {mintLabel}
        </button>
      </form>
      <FormError error={mint.error} />
    </>
  );
}

function Unnamed() {
  return (
    <span className="subtle">
      <FormattedMessage
        id="secretKeys.unnamed"
        defaultMessage="Unnamed"
        description="Shown for a key or token without a name."
      />
    </span>
  );
}
