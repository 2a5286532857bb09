import type { MessageDescriptor } from 'react-intl';

/**
 * An error the page raises itself (not main's), its sentence a catalogue message: whoever
 * shows it formats `descriptor` with `values` in the reader's language; `message` is the
 * English text, for logs and as the fallback.
 */
export class DescribedError extends Error {
  constructor(
    readonly descriptor: MessageDescriptor & { defaultMessage: string },
    readonly values?: Record<string, string | number>,
  ) {
    super(descriptor.defaultMessage);
    this.name = 'DescribedError';
  }
}
