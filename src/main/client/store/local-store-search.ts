/**
 * Full-text search over the local messages: the FTS5 index `messages_fts` (migration 7) that
 * triggers keep in step with `messages`, so a message stored, edited or removed (deleted,
 * expired, its conversation declined) is found, found anew or gone in the same commit.
 *
 * Hits come newest first by sentAt, exactly, without reading every match of a common word
 * (ordering 60,000 matches of "the" by sentAt costs far more than the 30 ms a search may take):
 *  1. the most recently stored matches, at most WINDOW, straight from the index in rowid (=
 *     seq, storage) order, which FTS5 walks backwards and stops;
 *  2. fewer than WINDOW: that is every match, sorted by sentAt. Otherwise storage order may
 *     differ from sentAt order only for a message stored late (an outbox that waited, a slow
 *     device): such a match, stored before the window but sent after the `limit`-th newest in
 *     it, is looked up from the other side, the messages sent after that time (an index range);
 *  3. snippets for just the `limit` kept, in one more pass over the index.
 * Conversations the list does not show (a request still pending, a blocked sender) are left
 * out, as there is nowhere to jump to.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { ConversationId } from '../../../shared/domain.js';
import { ftsQuery, type MessageSearchHit } from '../../../shared/message-search.js';

/** Words of context snippet() keeps around the matches. */
const SNIPPET_TOKENS = 12;
/** Matches read in storage order before the late-stored ones are looked up by time instead. */
const WINDOW = 500;

const VISIBLE = `JOIN conversations v ON v.id = m.conversation_id
      LEFT JOIN contacts c ON v.kind = 'direct' AND c.address = v.peer
      WHERE (v.kind = 'group' OR c.state IS NULL OR c.state IN ('known', 'allowed'))`;
const IN_CONVERSATION = ' AND m.conversation_id = @conv';

function recentSql(conv: string): string {
  return `SELECT m.seq, m.sent_at FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid
      ${VISIBLE} AND messages_fts MATCH @query${conv}
      ORDER BY messages_fts.rowid DESC LIMIT @window`;
}

// `+m.seq`: the range to walk is the (short) one of times after the window's, never the (long)
// one of everything stored before the window, which is what the planner would pick by itself.
function lateSql(conv: string): string {
  return `SELECT m.seq, m.sent_at FROM messages m
      ${VISIBLE} AND m.sent_at > @after AND +m.seq < @below${conv}
      AND EXISTS (SELECT 1 FROM messages_fts WHERE messages_fts MATCH @query AND messages_fts.rowid = m.seq)`;
}

/** The search statements (exported for the query-plan test). */
export const MESSAGE_SEARCH_SQL = {
  recent: recentSql(''),
  recentInConversation: recentSql(IN_CONVERSATION),
  late: lateSql(''),
  lateInConversation: lateSql(IN_CONVERSATION),
  // One pass over the matches between the kept ones' lowest and highest seq, a snippet for the
  // kept ones only (a MATCH per kept row would load the doclists again for each).
  hits: `WITH f AS MATERIALIZED (
      SELECT messages_fts.rowid AS seq,
        CASE WHEN messages_fts.rowid IN (SELECT value FROM json_each(@seqs)) THEN snippet(messages_fts, 0, char(2), char(3), '…', ${SNIPPET_TOKENS}) END AS snippet
      FROM messages_fts WHERE messages_fts MATCH @query AND messages_fts.rowid BETWEEN @lo AND @hi
    )
    SELECT m.id, m.conversation_id, m.author, m.from_me, m.sent_at, a.handle AS author_handle, f.snippet
    FROM f JOIN messages m ON m.seq = f.seq
    LEFT JOIN contacts a ON a.address = m.author
    WHERE f.snippet IS NOT NULL
    ORDER BY m.sent_at DESC, m.seq DESC`,
};

interface MatchRowDb {
  seq: number;
  sent_at: string;
}

interface HitRowDb {
  id: string;
  conversation_id: string;
  author: string;
  from_me: number;
  sent_at: string;
  author_handle: string | null;
  snippet: string;
}

const newestFirst = (a: MatchRowDb, b: MatchRowDb) =>
  a.sent_at === b.sent_at ? b.seq - a.seq : a.sent_at < b.sent_at ? 1 : -1;

export class MessageSearchStore {
  private readonly s: Record<keyof typeof MESSAGE_SEARCH_SQL, Statement>;

  constructor(db: Database.Database) {
    this.s = Object.fromEntries(
      Object.entries(MESSAGE_SEARCH_SQL).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Record<keyof typeof MESSAGE_SEARCH_SQL, Statement>;
  }

  /** Messages whose text has every word of `query` (as word prefixes), newest first; none for a query without words. */
  search(query: string, opts: { conversationId?: ConversationId | null; limit: number }): MessageSearchHit[] {
    const terms = ftsQuery(query);
    if (terms === null) return [];
    const conv = opts.conversationId ?? null;
    // the words are looked for in the text only; the conversation (its id without the kind, one
    // token or a uuid's phrase) narrows the index itself
    const fts = `text : (${terms})${conv ? ` AND conversation_id : "${conv.slice(conv.indexOf(':') + 1).replaceAll('"', '""')}"` : ''}`;
    const window = Math.max(WINDOW, opts.limit);
    const recent = (
      conv ? this.s.recentInConversation.all({ query: fts, conv, window }) : this.s.recent.all({ query: fts, window })
    ) as MatchRowDb[];
    let kept = recent.sort(newestFirst).slice(0, opts.limit);
    if (recent.length === window && kept.length > 0) {
      const at = { query: fts, after: kept[kept.length - 1].sent_at, below: Math.min(...recent.map((r) => r.seq)) };
      const late = (conv ? this.s.lateInConversation.all({ ...at, conv }) : this.s.late.all(at)) as MatchRowDb[];
      kept = [...kept, ...late].sort(newestFirst).slice(0, opts.limit);
    }
    if (kept.length === 0) return [];
    const seqs = kept.map((r) => r.seq);
    const rows = this.s.hits.all({
      query: fts,
      seqs: JSON.stringify(seqs),
      lo: Math.min(...seqs),
      hi: Math.max(...seqs),
    }) as HitRowDb[];
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
