import { useIntl } from 'react-intl';
import { useState } from 'react';
import { Icon } from './icon.js';

/** `iconOnly` where room is short (a header): the label is then on hover as well as read out. */
export function CopyButton({
  text,
  label: given,
  className = 'btn btn-secondary btn-sm',
  iconOnly = false,
}: {
  text: string;
  label?: string;
  className?: string;
  iconOnly?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  const intl = useIntl();
  const copyWord = intl.formatMessage({
    id: 'copy.button',
    defaultMessage: 'Copy',
    description: 'Button that copies a value to the clipboard.',
  });
  const label = given ?? copyWord;
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      title={iconOnly ? label : undefined}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          // Clipboard permission can be refused (web mode without focus); selecting is the fallback.
          const range = document.createRange();
          const node = document.querySelector(`[data-copy-source="${CSS.escape(text)}"]`);
          if (node) {
            range.selectNodeContents(node);
            getSelection()?.removeAllRanges();
            getSelection()?.addRange(range);
            document.execCommand('copy');
          }
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1600);
      }}
    >
      <Icon name={copied ? 'check' : 'copy'} size={15} />
      {!iconOnly && (
        <span>
          {copied
            ? intl.formatMessage({
                id: 'copy.done',
                defaultMessage: 'Copied',
                description: 'The Copy button right after it copied.',
              })
            : copyWord}
        </span>
      )}
    </button>
  );
}
