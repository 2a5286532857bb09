import { describe, expect, it } from 'vitest';
import { jsonDepth } from '../../http/guards/defences.js';

/** The plain character loop the guard used before it skipped strings with indexOf: the reference. */
function depthByCharacters(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return max;
}

describe('jsonDepth, the nesting guard ahead of the JSON parser', () => {
  it('skips brackets inside strings, however their quotes are escaped', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[{{{"}]}')).toBe(3);
    expect(jsonDepth('["\\"[[[", [[1]]]')).toBe(3);
    expect(jsonDepth('["\\\\", [[1]]]')).toBe(3);
    expect(jsonDepth('["\\\\\\"[[[[", 1]')).toBe(1);
    expect(jsonDepth('["never closed [[[[[[')).toBe(1);
    expect(jsonDepth('"\\')).toBe(0);
  });

  it('agrees with the character loop on 20,000 random texts of quotes, backslashes and brackets', () => {
    const alphabet = ['"', '\\', '{', '[', '}', ']', 'a', ',', '"', '\\'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % alphabet.length;
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: 1 + (n % 40) }, () => alphabet[next()]).join('');
      expect(jsonDepth(text), text).toBe(depthByCharacters(text));
    }
  });
});
