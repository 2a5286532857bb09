/**
 * Gives the app its language: the person's choice (kept in the page's own storage, like the
 * theme) or the system's, the catalogue for it, and `lang`/`dir` on the document so text,
 * layout and screen readers follow. Renders nothing until a non-English catalogue is loaded,
 * so no screen flashes English first at start.
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createIntl, createIntlCache, RawIntlProvider } from 'react-intl';
import { english, loadMessages, type Messages } from './catalogues.js';
import { setCurrentIntl } from './current-intl.js';
import { isLanguageChoice, isRtl, resolveLocale, type AppLocale, type LanguageChoice } from './locales.js';

const CHOICE_KEY = 'messenger.language';
const LOCALE_HOOK = 'messenger-locale';

interface LocaleState {
  choice: LanguageChoice;
  locale: AppLocale;
  choose: (choice: LanguageChoice) => void;
}

const LocaleContext = createContext<LocaleState>({ choice: 'system', locale: 'en', choose: () => undefined });

export function useLocaleChoice(): LocaleState {
  return useContext(LocaleContext);
}

function storedChoice(): LanguageChoice {
  const v = localStorage.getItem(CHOICE_KEY);
  return isLanguageChoice(v) ? v : 'system';
}

function usePreferredLanguages(): readonly string[] {
  const [langs, setLangs] = useState(() => navigator.languages);
  useEffect(() => {
    const update = () => setLangs(navigator.languages);
    window.addEventListener('languagechange', update);
    return () => window.removeEventListener('languagechange', update);
  }, []);
  return langs;
}

const cache = createIntlCache();

export function LocaleProvider({ children }: { children: ReactNode }) {
  const [choice, setChoice] = useState<LanguageChoice>(storedChoice);
  const preferred = usePreferredLanguages();
  const locale = resolveLocale(choice, preferred);
  const [loaded, setLoaded] = useState<{ locale: AppLocale; messages: Messages; first: boolean }>({
    locale: 'en',
    messages: english,
    first: true,
  });

  useEffect(() => {
    let live = true;
    void loadMessages(locale).then((messages) => live && setLoaded({ locale, messages, first: false }));
    return () => {
      live = false;
    };
  }, [locale]);

  const intl = useMemo(() => {
    // The pseudo-locale formats dates and numbers as English does.
    const tag = loaded.locale === 'en-XA' ? 'en' : loaded.locale;
    const made = createIntl({ locale: tag, defaultLocale: 'en', messages: loaded.messages }, cache);
    setCurrentIntl(made);
    return made;
  }, [loaded]);

  useEffect(() => {
    document.documentElement.lang = loaded.locale;
    document.documentElement.dir = isRtl(loaded.locale) ? 'rtl' : 'ltr';
  }, [loaded.locale]);

  // The test hook: `window.dispatchEvent(new CustomEvent('messenger-locale', { detail: 'en-XA' }))`
  // changes the language in place (a reload would lose an onboarding step), so Playwright can
  // walk screens under the pseudo-locale; nothing in the app sends it.
  useEffect(() => {
    const onHook = (e: Event) => {
      const detail = (e as CustomEvent<unknown>).detail;
      if (isLanguageChoice(detail)) setChoice(detail);
    };
    window.addEventListener(LOCALE_HOOK, onHook);
    return () => window.removeEventListener(LOCALE_HOOK, onHook);
  }, []);

  const state = useMemo<LocaleState>(
    () => ({
      choice,
      locale,
      choose: (next) => {
        // A display preference, not domain data: it may live in the page's own storage.
        if (next === 'system') localStorage.removeItem(CHOICE_KEY);
        else localStorage.setItem(CHOICE_KEY, next);
        setChoice(next);
      },
    }),
    [choice, locale],
  );

  // Only the first load waits: a later change keeps the app (and its state) on screen meanwhile.
  if (loaded.first && locale !== 'en') return null;
  return (
    <LocaleContext.Provider value={state}>
      <RawIntlProvider value={intl}>{children}</RawIntlProvider>
    </LocaleContext.Provider>
  );
}
