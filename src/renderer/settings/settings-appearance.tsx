import { FormattedMessage, useIntl } from 'react-intl';
import { useLocaleChoice } from '../i18n/locale-provider.js';
import { LANGUAGE_NAMES, LANGUAGES, type LanguageChoice } from '../i18n/locales.js';
import { useStore } from '../store.js';
import type { ThemeChoice } from '../shell/ui-slice.js';

/** Theme and language: how the app looks and speaks, kept in this page's own storage. */
export function SettingsAppearance() {
  const theme = useStore((s) => s.theme);
  const chooseTheme = useStore((s) => s.chooseTheme);
  const intl = useIntl();
  const options: { value: ThemeChoice; label: string }[] = [
    {
      value: 'system',
      label: intl.formatMessage({
        id: 'settings.theme.system',
        defaultMessage: 'Match system',
        description: 'Theme choice: follow the system’s light or dark mode.',
      }),
    },
    {
      value: 'light',
      label: intl.formatMessage({
        id: 'settings.theme.light',
        defaultMessage: 'Light',
        description: 'Theme choice: light.',
      }),
    },
    {
      value: 'dark',
      label: intl.formatMessage({
        id: 'settings.theme.dark',
        defaultMessage: 'Dark',
        description: 'Theme choice: dark.',
      }),
    },
  ];
  return (
    <section className="card section" aria-labelledby="appearance-title">
      <h2 id="appearance-title">
        <FormattedMessage
          id="settings.appearance.title"
          defaultMessage="Appearance"
          description="Settings section: theme and language."
        />
      </h2>
      <div
        className="segmented"
        role="radiogroup"
        aria-label={intl.formatMessage({
          id: 'settings.theme.label',
          defaultMessage: 'Theme',
          description: 'Accessible name of the theme choice.',
        })}
      >
        {options.map((o) => (
          <label key={o.value} className={theme === o.value ? 'active' : ''}>
            <input type="radio" name="theme" checked={theme === o.value} onChange={() => chooseTheme(o.value)} />
            {o.label}
          </label>
        ))}
      </div>
      <LanguagePicker />
    </section>
  );
}

/** "System default" and each language in its own name; the pseudo-locale is for tests only and not offered. */
function LanguagePicker() {
  const { choice, choose } = useLocaleChoice();
  const intl = useIntl();
  const label = intl.formatMessage({
    id: 'settings.language.label',
    defaultMessage: 'Language',
    description: 'Label of the language choice in Settings.',
  });
  return (
    <label className="field narrow-field">
      <span className="field-label">{label}</span>
      <select
        value={LANGUAGES.includes(choice as never) ? choice : 'system'}
        onChange={(e) => choose(e.target.value as LanguageChoice)}
      >
        <option value="system">
          {intl.formatMessage({
            id: 'settings.language.system',
            defaultMessage: 'System default',
            description: 'Language choice: follow the system’s or browser’s language.',
          })}
        </option>
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
