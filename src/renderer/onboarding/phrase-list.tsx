import { useIntl } from 'react-intl';

/** The recovery words, numbered, left to right in every language (the phrase itself is English words). */
export function PhraseList({ words }: { words: string[] }) {
  const intl = useIntl();
  return (
    <ol
      className="phrase-grid"
      aria-label={intl.formatMessage({
        id: 'onboarding.phrase.list',
        defaultMessage: 'Recovery phrase',
        description: 'Accessible name of the list of recovery words.',
      })}
      dir="ltr"
    >
      {words.map((w, i) => (
        <li key={i}>
          <span className="phrase-index">{intl.formatNumber(i + 1)}</span>
          <span className="phrase-word">{w}</span>
        </li>
      ))}
    </ol>
  );
}
