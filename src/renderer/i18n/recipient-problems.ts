/**
 * parseRecipient's problems (src/shared/recipient.ts, which stays free of react-intl because
 * main and the CLI use it in English) in the person's language, by their code.
 */
import { defineMessages, type IntlShape } from 'react-intl';
import type { RecipientProblem } from '../../shared/recipient.js';
import { isolate } from './isolate.js';

const texts = defineMessages({
  empty: {
    id: 'recipient.problem.empty',
    defaultMessage: 'Enter a handle (like @alice) or a wallet address (0x…).',
    description: 'Under the To/Member field when it is empty.',
  },
  addressCharacters: {
    id: 'recipient.problem.addressCharacters',
    defaultMessage: '“{text}” is not a valid address: after 0x an address has only the digits 0-9 and letters a-f.',
    description: 'Under the To/Member field; {text} is what was typed (starts with 0x but has other characters).',
  },
  addressLength: {
    id: 'recipient.problem.addressLength',
    defaultMessage:
      '“{text}” is not a valid address: it has {digits, plural, one {# hex digit} other {# hex digits}} after 0x, and an address has 40.',
    description: 'Under the To/Member field; {text} is what was typed, {digits} how many hex digits follow 0x.',
  },
  neither: {
    id: 'recipient.problem.neither',
    defaultMessage:
      '“{text}” is neither a handle (3–32 letters, digits or underscores) nor a wallet address (0x + 40 hex digits).',
    description: 'Under the To/Member field; {text} is what was typed.',
  },
});

export function isRecipientProblem(e: unknown): e is RecipientProblem {
  return typeof e === 'object' && e !== null && 'code' in e && 'problem' in e && 'text' in e;
}

export function recipientProblemText(intl: IntlShape, p: RecipientProblem): string {
  const text = isolate(p.text, intl);
  switch (p.code) {
    case 'empty':
      return intl.formatMessage(texts.empty);
    case 'address-characters':
      return intl.formatMessage(texts.addressCharacters, { text });
    case 'address-length':
      return intl.formatMessage(texts.addressLength, { text, digits: p.digits });
    case 'neither':
      return intl.formatMessage(texts.neither, { text });
  }
}
