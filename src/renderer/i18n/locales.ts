/**
 * The languages the app speaks, and which one a person gets: their choice in Settings, else the
 * best match among the system's/browser's preferred languages, else English. `en-XA` is the
 * pseudo-locale for tests (accented, longer, bracketed); nobody's system asks for it, and
 * Settings does not offer it.
 */
export const LANGUAGES = ['en', 'de', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const PSEUDO_LOCALE = 'en-XA';
export type AppLocale = Language | typeof PSEUDO_LOCALE;

/** Each language in its own name, as a language picker shows it (never translated). */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', ar: 'العربية' };

const RTL = new Set(['ar', 'fa', 'he', 'ur']);

export function isRtl(locale: string): boolean {
  return RTL.has(locale.split('-')[0].toLowerCase());
}

/** The first preferred language the app has (by its primary subtag); English when none. */
export function matchLocale(preferred: readonly string[]): AppLocale {
  for (const tag of preferred) {
    if (tag.toLowerCase() === PSEUDO_LOCALE.toLowerCase()) return PSEUDO_LOCALE;
    const primary = tag.split(/[-_]/)[0].toLowerCase();
    const hit = LANGUAGES.find((l) => l === primary);
    if (hit) return hit;
  }
  return 'en';
}

export type LanguageChoice = 'system' | AppLocale;

export function isLanguageChoice(v: unknown): v is LanguageChoice {
  return v === 'system' || v === PSEUDO_LOCALE || (LANGUAGES as readonly unknown[]).includes(v);
}

/** What the choice means now: the chosen language, or the system's. */
export function resolveLocale(choice: LanguageChoice, preferred: readonly string[]): AppLocale {
  return choice === 'system' ? matchLocale(preferred) : choice;
}
