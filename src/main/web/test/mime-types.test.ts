import { describe, expect, it } from 'vitest';
import { attachmentMimeType, mimeTypeOf } from '../../../shared/mime-types.js';

describe('the one MIME table', () => {
  it('types a name or a path by its extension, in any case', () => {
    expect(mimeTypeOf('photo.PNG')).toBe('image/png');
    expect(mimeTypeOf('/srv/web/assets/index-3f2a.js')).toBe('text/javascript');
    expect(mimeTypeOf('C:\\files\\report.pdf')).toBe('application/pdf');
    expect(mimeTypeOf('fonts/inter.woff2')).toBe('font/woff2');
  });

  it('knows nothing of a name without an extension, a dot file, or a dot in a folder name', () => {
    for (const name of ['README', '.png', 'release.v2/README', 'a.unknownext'])
      expect(mimeTypeOf(name)).toBe('application/octet-stream');
  });

  it('never sends an attachment as a type a browser would run', () => {
    expect(mimeTypeOf('page.html')).toBe('text/html');
    expect(attachmentMimeType('page.html')).toBe('application/octet-stream');
    expect(attachmentMimeType('script.js')).toBe('application/octet-stream');
    expect(attachmentMimeType('notes.md')).toBe('text/markdown');
    expect(attachmentMimeType('clip.MOV')).toBe('video/quicktime');
  });
});
