/**
 * The active language for code outside React (the bridge's errors, desktop notifications):
 * the LocaleProvider puts its intl object here whenever the language changes.
 */
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';

const cache = createIntlCache();
let current: IntlShape = createIntl({ locale: 'en', defaultLocale: 'en', messages: {} }, cache);

export function currentIntl(): IntlShape {
  return current;
}

export function setCurrentIntl(intl: IntlShape): void {
  current = intl;
}
