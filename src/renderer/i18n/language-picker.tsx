import { useIntl } from 'react-intl';
import { useLocaleChoice } from './locale-provider.js';
import { LANGUAGE_NAMES, LANGUAGES, type LanguageChoice } from './locales.js';

/**
 * The language choice, in Settings and on the first screen (someone who does not read the
 * system's language can change it before anything else).
 * "System default" and each language in its own name; the pseudo-locale is for tests only and not offered.
 */
export function LanguagePicker({ className = 'field narrow-field' }: { className?: string }) {
  const { choice, choose } = useLocaleChoice();
  const intl = useIntl();
  const label = intl.formatMessage({
    id: 'settings.language.label',
    defaultMessage: 'Language',
    description: 'Label of the language choice, in Settings and on the first screen of the app.',
  });
  return (
    <label className={className}>
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
