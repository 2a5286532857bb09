/**
 * Local full-text search over the messages of this device (SQLite FTS5 in client.db): how a
 * person's query becomes an FTS5 query, what a hit carries, and how its snippet marks the
 * matched words. Pure: main builds the query, the renderer and the CLI read the snippet.
 */
import type { ConversationId } from './domain.js';

/** The most hits one search returns (the app asks for fewer). */
export const SEARCH_MAX_LIMIT = 200;
export const SEARCH_DEFAULT_LIMIT = 50;
export const SEARCH_QUERY_MAX_CHARS = 200;

/**
 * Around each matched word in a snippet: control characters, so the snippet stays plain text
 * that is never parsed as markup; the renderer turns the marked runs into <mark> elements.
 */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

export interface MessageSearchHit {
  messageId: string;
  conversationId: ConversationId;
  from: string;
  fromHandle: string | null;
  fromMe: boolean;
  sentAt: string;
  /** a few words of the message around the matches, each match between MATCH_START and MATCH_END */
  snippet: string;
}

/** A word as FTS5's unicode61 tokenizer sees one: letters, digits, marks, private-use characters. */
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]/u;
/** a one-character prefix would match nearly every message: such a term is matched whole */
const MIN_PREFIX_CHARS = 2;
/** terms beyond this are dropped: a pasted paragraph is not a query */
const MAX_TERMS = 16;

/**
 * The FTS5 query for what a person typed, or null when it holds no word (only punctuation or
 * spaces: no results, not an error). Every whitespace-separated term is quoted, so FTS5 syntax
 * in the input (AND, OR, NOT, NEAR, `*`, `^`, `:`, parentheses, quotes) is searched as text,
 * never obeyed; all terms must match (implicit AND), each as a word prefix, so results come
 * while the person is still typing.
 */
export function ftsQuery(input: string): string | null {
  const terms = input
    .split(/\s+/u)
    .filter((t) => WORD.test(t))
    .slice(0, MAX_TERMS)
    .map((t) => {
      const quoted = `"${t.replaceAll('"', '""')}"`;
      return [...t].filter((ch) => WORD.test(ch)).length >= MIN_PREFIX_CHARS ? `${quoted}*` : quoted;
    });
  return terms.length > 0 ? terms.join(' ') : null;
}

export interface SnippetPart {
  text: string;
  match: boolean;
}

/** The snippet cut into plain and matched runs (markers removed), for display. */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let text = '';
  const flush = () => {
    if (text) parts.push({ text, match });
    text = '';
  };
  for (const ch of snippet) {
    if (ch === MATCH_START || ch === MATCH_END) {
      flush();
      match = ch === MATCH_START;
    } else text += ch;
  }
  flush();
  return parts;
}
