import { defineMessages, type IntlShape } from 'react-intl';

const SIZE = 192;

const texts = defineMessages({
  notImage: {
    id: 'groups.create.pictureNotImage',
    defaultMessage: 'Choose a picture file (PNG, JPEG, WebP or GIF).',
    description: 'Error under the group picture when the picked file is not an image',
  },
  unreadable: {
    id: 'groups.create.pictureUnreadable',
    defaultMessage: 'That picture could not be read.',
    description: 'Error under the group picture when the image could not be decoded',
  },
});

/** Why a picked picture was refused; the form says it in the reader's language (avatarProblem). */
export class AvatarError extends Error {
  constructor(readonly kind: keyof typeof texts) {
    super(texts[kind].defaultMessage as string);
  }
}

export function avatarProblem(intl: IntlShape, e: unknown): string {
  return e instanceof AvatarError ? intl.formatMessage(texts[e.kind]) : e instanceof Error ? e.message : String(e);
}

/** Shrinks a picked picture to a small square data URI, well under the relay's 256 KiB limit. */
export async function readAvatar(file: File): Promise<string> {
  if (!file.type.startsWith('image/')) throw new AvatarError('notImage');
  const bitmap = await createImageBitmap(file).catch(() => {
    throw new AvatarError('unreadable');
  });
  const canvas = document.createElement('canvas');
  canvas.width = SIZE;
  canvas.height = SIZE;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new AvatarError('unreadable');
  const side = Math.min(bitmap.width, bitmap.height);
  ctx.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, SIZE, SIZE);
  return canvas.toDataURL('image/webp', 0.85);
}
