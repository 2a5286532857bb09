import { useLayoutEffect, useRef } from 'react';
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
  // The words above the picker change length with the language (German runs longer, Arabic
  // shorter): the page is scrolled back so the picker stays where the person left it.
  const select = useRef<HTMLSelectElement>(null);
  const anchor = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = select.current;
    if (anchor.current === null || !el) return;
    const moved = el.getBoundingClientRect().top - anchor.current;
    anchor.current = null;
    for (let p = el.parentElement; p; p = p.parentElement)
      if (p.scrollHeight > p.clientHeight && /auto|scroll/.test(getComputedStyle(p).overflowY)) {
        p.scrollTop += moved;
        return;
      }
  }, [intl]);
  const label = intl.formatMessage({
    id: 'settings.language.label',
    defaultMessage: 'Language',
    description: 'Label of the language choice, in Settings and on the first screen of the app.',
  });
  return (
    <label className={className}>
      <span className="field-label">{label}</span>
      <select
        ref={select}
        value={LANGUAGES.some((l) => l === choice) ? choice : 'system'}
        onChange={(e) => {
          anchor.current = e.target.getBoundingClientRect().top;
          choose(e.target.value as LanguageChoice);
        }}
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
