import type { IntlShape } from 'react-intl';
import type { BackupSummary } from '../../shared/backup/backup.js';

/** "3 conversations, 20 messages, 1 file" in the active language (shared/backup.ts's backupCounts is the CLI's English). */
export function backupCountsText(
  intl: IntlShape,
  s: Pick<BackupSummary, 'conversations' | 'messages' | 'files'>,
): string {
  return intl.formatMessage(
    {
      id: 'backup.counts',
      defaultMessage:
        '{conversations, plural, one {# conversation} other {# conversations}}, {messages, plural, one {# message} other {# messages}}, {files, plural, one {# file} other {# files}}',
      description: 'What a backup holds, after export or restore.',
    },
    { conversations: s.conversations, messages: s.messages, files: s.files },
  );
}
