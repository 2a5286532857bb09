import { badRequest } from './errors.js';

/**
 * C0 and C1 control characters, U+0000 included. SQLite stores them and PostgreSQL refuses
 * U+0000 in text outright (an error, once answered 500), and no name, label or search has a
 * use for any of them; refused alike on both stores.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Bidirectional embeddings, overrides and isolates: they make a name read as another. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/** Zero-width characters: two names that look the same must be the same. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/;

const invalidText = (what: string, why: string) => badRequest(`${what} ${why}`, 'invalid-text');

/** Text the relay stores or searches (labels, the directory query, avatars): no control characters. */
export function checkText<T extends string | null | undefined>(value: T, what: string): T {
  if (typeof value === 'string' && CONTROL.test(value)) throw invalidText(what, 'must not hold control characters');
  return value;
}

/**
 * A group or token name as it is kept: trimmed, not empty, and without control, bidirectional
 * or zero-width characters, so that what members see is what the name says.
 */
export function checkName(value: string, what: string): string {
  checkText(value, what);
  const name = value.trim();
  if (name.length === 0) throw invalidText(what, 'must not be empty or only spaces');
  if (BIDI.test(name)) throw invalidText(what, 'must not hold bidirectional override or isolate characters');
  if (ZERO_WIDTH.test(name)) throw invalidText(what, 'must not hold zero-width characters');
  return name;
}
