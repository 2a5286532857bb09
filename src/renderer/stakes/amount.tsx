import { useIntl } from 'react-intl';
import { formatWei } from '../../shared/stake/amount.js';
import { amountText } from '../i18n/format.js';

/**
 * An amount of a currency, the one way the app shows one: at most six decimals (formatAmount),
 * in the language's digits and separators, the whole value on hover, and the whole value
 * (machine-readable) when it is copied.
 */
export function Amount({ wei, currency }: { wei: bigint | string; currency: string }) {
  const full = `${formatWei(wei)} ${currency}`;
  const shown = amountText(wei, currency, useIntl());
  return (
    <span
      className="amount"
      title={shown === full ? undefined : full}
      onCopy={(e) => {
        // only when the selection is this amount alone; a longer selection copies as it reads
        if (getSelection()?.toString().trim() !== shown) return;
        e.preventDefault();
        e.clipboardData.setData('text/plain', full);
      }}
    >
      {shown}
    </span>
  );
}
