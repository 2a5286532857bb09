/**
 * The small preview of an image that travels inside the sealed message, so the receiver sees it
 * before the file is fetched. Made here with a canvas (downscaling is not crypto; the file itself
 * is encrypted in main): the longest side at most PREVIEW_SIDE pixels, JPEG whose quality steps
 * down until it fits the budget. Null for what is not an image or does not decode.
 */
import { PREVIEW_MAX_CHARS } from '../../shared/attachments.js';

const PREVIEW_SIDE = 320;
const QUALITIES = [0.72, 0.6, 0.48, 0.36, 0.25];
/** images the browser decodes that are worth a preview (a huge file would stall the page: skip it) */
const PREVIEWABLE = /^image\/(jpeg|png|webp|gif|bmp|avif)$/;
const MAX_SOURCE_BYTES = 25 * 1024 * 1024;

export async function makePreview(file: File, budget = PREVIEW_MAX_CHARS): Promise<string | null> {
  if (!PREVIEWABLE.test(file.type) || file.size > MAX_SOURCE_BYTES) return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  try {
    for (let side = PREVIEW_SIDE; side >= 80; side = Math.round(side * 0.7)) {
      const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      const ctx = canvas.getContext('2d');
      if (!ctx) return null;
      // a transparent PNG on JPEG's black would look wrong: lay it on white
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      for (const q of QUALITIES) {
        const url = canvas.toDataURL('image/jpeg', q);
        if (url.length <= budget && url.startsWith('data:image/jpeg;base64,')) return url;
      }
    }
    return null;
  } finally {
    bitmap.close();
  }
}
