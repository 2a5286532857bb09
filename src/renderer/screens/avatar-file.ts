/** Shrinks a picked picture to a small square data URI, well under the relay's 256 KiB limit. */
const SIZE = 192;

export async function readAvatar(file: File): Promise<string> {
  if (!file.type.startsWith('image/')) throw new Error('Choose a picture file (PNG, JPEG, WebP or GIF).');
  const bitmap = await createImageBitmap(file).catch(() => {
    throw new Error('That picture could not be read.');
  });
  const canvas = document.createElement('canvas');
  canvas.width = SIZE;
  canvas.height = SIZE;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('That picture could not be read.');
  const side = Math.min(bitmap.width, bitmap.height);
  ctx.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, SIZE, SIZE);
  return canvas.toDataURL('image/webp', 0.85);
}
