import { useCallback } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import { MAX_FILES } from '../../shared/attachments.js';
import type { ConversationId } from '../../shared/domain.js';
import { fileSize } from '../i18n/format.js';
import { useStore } from '../store.js';

const texts = defineMessages({
  tooLarge: {
    id: 'draftFiles.refused.tooLarge',
    defaultMessage: '“{name}” is {size}; a file can be at most 25 MiB.',
    description:
      'Error toast for a picked, dropped or pasted file over the size limit; {name} is the file name, {size} its size (e.g. 31.2 MB)',
  },
  empty: {
    id: 'draftFiles.refused.empty',
    defaultMessage: '“{name}” is empty.',
    description: 'Error toast for a picked file with no content; {name} is the file name',
  },
  tooMany: {
    id: 'draftFiles.refused.tooMany',
    defaultMessage:
      'A message carries at most {max, number} files; {count, plural, one {# was left out} other {# were left out}}.',
    description:
      'Error toast when more files were added than one message carries; {max} is the limit, {count} how many files were not added',
  },
});

/**
 * Adds picked, dropped or pasted files to the conversation's composer and says in one toast,
 * in the reader's language, which ones it left out and why.
 */
export function useAddDraftFiles(conversationId: ConversationId): (files: File[]) => void {
  const intl = useIntl();
  const addDraftFiles = useStore((s) => s.addDraftFiles);
  const showToast = useStore((s) => s.showToast);
  return useCallback(
    (files: File[]) => {
      const r = addDraftFiles(conversationId, files);
      const problems = [
        ...r.tooLarge.map((f) => intl.formatMessage(texts.tooLarge, { name: f.name, size: fileSize(f.size, intl) })),
        ...r.empty.map((name) => intl.formatMessage(texts.empty, { name })),
        ...(r.leftOut > 0 ? [intl.formatMessage(texts.tooMany, { max: MAX_FILES, count: r.leftOut })] : []),
      ];
      if (problems.length) showToast('error', problems.join(' '));
    },
    [intl, addDraftFiles, showToast, conversationId],
  );
}
