import { FormattedMessage, useIntl } from 'react-intl';
import { LanguagePicker } from '../i18n/language-picker.js';
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
