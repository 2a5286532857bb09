import { describe, expect, it } from 'vitest';
import { TouchThrottle } from '../../http/touch-throttle.js';

describe('TouchThrottle (when a key use is recorded)', () => {
  it('a key is due on its first use, then once per interval', () => {
    const t = new TouchThrottle(60_000);
    expect(t.due('a', 1)).toBe(true);
    expect(t.due('a', 59_000)).toBe(false);
    expect(t.due('b', 59_000)).toBe(true);
    expect(t.due('a', 60_001)).toBe(true);
    expect(t.due('a', 60_002)).toBe(false);
  });

  it('forgets keys unused for an interval once it holds more than it keeps, looking at most once an interval', () => {
    const t = new TouchThrottle(1_000, 3);
    for (const id of ['a', 'b', 'c']) expect(t.due(id, 0)).toBe(true);
    expect(t.size).toBe(3);
    // past what it keeps, but every key is fresh: nothing to forget, and no new look for an interval
    expect(t.due('d', 500)).toBe(true);
    expect(t.due('e', 900)).toBe(true);
    expect(t.size).toBe(5);
    // an interval after that look: a, b, c and d are forgotten, e (900) is not
    expect(t.due('f', 1_500)).toBe(true);
    expect(t.size).toBe(2);
    expect(t.due('a', 1_501)).toBe(true);
    expect(t.due('e', 1_501)).toBe(false);
  });

  it('with every key in use, it keeps them all and looks again only after an interval', () => {
    const t = new TouchThrottle(1_000, 2);
    for (let i = 0; i < 10; i++) expect(t.due(`k${i}`, 100 + i)).toBe(true);
    expect(t.size).toBe(10);
    for (let i = 0; i < 10; i++) expect(t.due(`k${i}`, 200)).toBe(false);
  });
});
