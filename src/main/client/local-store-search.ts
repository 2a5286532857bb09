/**
 * Full-text search over the local messages: the FTS5 index `messages_fts` (migration 7) that
 * triggers keep in step with `messages`, so a message stored, edited or removed (deleted,
 * expired, its conversation declined) is found, found anew or gone in the same commit.
 *
 * Hits come newest first by sentAt. Ordering by sentAt means reading every match's message
 * row, so the search runs in two steps in one statement: the `limit` newest matches (seq and
 * sentAt only), then the snippet for just those; a snippet for every match of a common word
 * before the sort would cost more than the whole search. Conversations the list does not show
 * (a request still pending, a blocked sender) are left out, as there is nowhere to jump to.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { ConversationId } from '../../shared/domain.js';
import { ftsQuery, type MessageSearchHit } from '../../shared/message-search.js';

/** Words of context snippet() keeps around the matches. */
const SNIPPET_TOKENS = 12;

const SHOWN_CONVERSATION = `(v.kind = 'group' OR c.state IS NULL OR c.state IN ('known', 'allowed'))`;

function searchSql(inConversation: boolean): string {
  return `WITH top AS MATERIALIZED (
      SELECT m.seq, m.sent_at FROM messages_fts
      JOIN messages m ON m.seq = messages_fts.rowid
      JOIN conversations v ON v.id = m.conversation_id
      LEFT JOIN contacts c ON v.kind = 'direct' AND c.address = v.peer
      WHERE messages_fts MATCH @query AND ${SHOWN_CONVERSATION}${inConversation ? ' AND m.conversation_id = @conv' : ''}
      ORDER BY m.sent_at DESC, m.seq DESC LIMIT @limit
    )
    SELECT m.id, m.conversation_id, m.author, m.from_me, m.sent_at, a.handle AS author_handle,
      snippet(messages_fts, 0, char(2), char(3), '…', ${SNIPPET_TOKENS}) AS snippet
    FROM top CROSS JOIN messages_fts ON messages_fts.rowid = top.seq
    JOIN messages m ON m.seq = top.seq
    LEFT JOIN contacts a ON a.address = m.author
    WHERE messages_fts MATCH @query
    ORDER BY top.sent_at DESC, top.seq DESC`;
}

/** The search statements (exported for the query-plan test). */
export const MESSAGE_SEARCH_SQL = {
  searchAll: searchSql(false),
  searchConversation: searchSql(true),
};

interface HitRowDb {
  id: string;
  conversation_id: string;
  author: string;
  from_me: number;
  sent_at: string;
  author_handle: string | null;
  snippet: string;
}

export class MessageSearchStore {
  private readonly s: Record<keyof typeof MESSAGE_SEARCH_SQL, Statement>;

  constructor(db: Database.Database) {
    this.s = { searchAll: db.prepare(MESSAGE_SEARCH_SQL.searchAll), searchConversation: db.prepare(MESSAGE_SEARCH_SQL.searchConversation) };
  }

  /** Messages whose text has every word of `query` (as word prefixes), newest first; none for a query without words. */
  search(query: string, opts: { conversationId?: ConversationId | null; limit: number }): MessageSearchHit[] {
    const fts = ftsQuery(query);
    if (fts === null) return [];
    const rows = (
      opts.conversationId ? this.s.searchConversation.all({ query: fts, conv: opts.conversationId, limit: opts.limit }) : this.s.searchAll.all({ query: fts, limit: opts.limit })
    ) as HitRowDb[];
    return rows.map((r) => ({
      messageId: r.id,
      conversationId: r.conversation_id as ConversationId,
      from: r.author,
      fromHandle: r.author_handle,
      fromMe: r.from_me === 1,
      sentAt: r.sent_at,
      snippet: r.snippet,
    }));
  }
}
