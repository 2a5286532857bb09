/**
 * Splits text that is too long for one message into parts of at most `max` characters,
 * breaking at a paragraph, line or word end near the limit when there is one, and never
 * inside a surrogate pair. Joining the parts gives back the text exactly.
 */
export function splitMessage(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = max;
    const window = rest.slice(Math.floor(max * 0.8), max);
    for (const sep of ['\n\n', '\n', ' ']) {
      const at = window.lastIndexOf(sep);
      if (at >= 0) {
        cut = Math.floor(max * 0.8) + at + sep.length;
        break;
      }
    }
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) parts.push(rest);
  return parts;
}
