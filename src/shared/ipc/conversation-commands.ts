/** The commands of conversations, their messages and attached files (see ../ipc.ts for the whole contract). */
import { Type } from 'typebox';
import { type ChatMessage, type DeletedMessage, type ConversationSummary, MESSAGE_MAX_CHARS } from '../domain.js';
import { TIMER_MAX_SECONDS, TIMER_MIN_SECONDS } from '../disappearing.js';
import {
  CAPTION_MAX_CHARS,
  FILE_CHUNK_BYTES,
  MAX_FILES,
  MAX_FILE_BYTES,
  PREVIEW_MAX_CHARS,
  PREVIEW_PATTERN,
} from '../attachments.js';
import { SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX_CHARS, type MessageSearchHit } from '../message-search.js';
import { Recipient, ConvId, Uuid, NoArgs, cmd } from './args.js';

export const conversationCommands = {
  // conversations and messages
  'conversations.list': cmd<ConversationSummary[]>()(NoArgs),
  'conversations.open': cmd<ConversationSummary>()(Type.Object({ to: Recipient }, { additionalProperties: false })),
  'conversations.markRead': cmd<void>()(Type.Object({ conversationId: ConvId }, { additionalProperties: false })),
  // around: open at that message (a search hit): `limit` older ones, it, and the newer ones up to the newest
  'messages.list': cmd<ChatMessage[]>()(
    Type.Object(
      {
        conversationId: ConvId,
        before: Type.Optional(Type.String({ maxLength: 64 })),
        around: Type.Optional(Type.String({ maxLength: 64 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20000 })),
      },
      { additionalProperties: false },
    ),
  ),
  // local full-text search, newest first; a query without words finds nothing
  'messages.search': cmd<MessageSearchHit[]>()(
    Type.Object(
      {
        query: Type.String({ maxLength: SEARCH_QUERY_MAX_CHARS }),
        conversationId: Type.Optional(ConvId),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_MAX_LIMIT })),
      },
      { additionalProperties: false },
    ),
  ),
  'messages.send': cmd<ChatMessage>()(
    Type.Object(
      {
        conversationId: ConvId,
        text: Type.String({ minLength: 1, maxLength: MESSAGE_MAX_CHARS }),
        asRequest: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
  ),
  'messages.retry': cmd<ChatMessage>()(Type.Object({ messageId: Uuid }, { additionalProperties: false })),
  /** one's own message only; the others' devices and one's own other devices apply it too */
  'messages.edit': cmd<ChatMessage>()(
    Type.Object(
      { conversationId: ConvId, messageId: Uuid, text: Type.String({ minLength: 1, maxLength: MESSAGE_MAX_CHARS }) },
      { additionalProperties: false },
    ),
  ),
  'messages.delete': cmd<DeletedMessage>()(
    Type.Object({ conversationId: ConvId, messageId: Uuid }, { additionalProperties: false }),
  ),
  /** disappearing messages: 0 = off, else 30 s to 4 weeks; a notice tells the other side */
  'conversations.setTimer': cmd<ConversationSummary>()(
    Type.Object(
      {
        conversationId: ConvId,
        seconds: Type.Union([
          Type.Literal(0),
          Type.Integer({ minimum: TIMER_MIN_SECONDS, maximum: TIMER_MAX_SECONDS }),
        ]),
      },
      { additionalProperties: false },
    ),
  ),

  // files: a file's bytes cross in chunks of FILE_CHUNK_BYTES (base64) into a staged
  // upload; `attachments.send` uploads the staged files and sends them (progress: `file.progress`
  // with the send's id); a failed send keeps them staged for a retry
  'attachments.stage': cmd<{ uploadId: string }>()(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 255 }),
        size: Type.Integer({ minimum: 1, maximum: MAX_FILE_BYTES }),
      },
      { additionalProperties: false },
    ),
  ),
  'attachments.append': cmd<{ received: number }>()(
    Type.Object(
      {
        uploadId: Uuid,
        offset: Type.Integer({ minimum: 0 }),
        data: Type.String({ minLength: 1, maxLength: Math.ceil(FILE_CHUNK_BYTES / 3) * 4 }),
      },
      { additionalProperties: false },
    ),
  ),
  'attachments.send': cmd<ChatMessage>()(
    Type.Object(
      {
        sendId: Uuid,
        conversationId: ConvId,
        text: Type.String({ maxLength: CAPTION_MAX_CHARS }),
        files: Type.Array(
          Type.Object(
            {
              uploadId: Uuid,
              preview: Type.Optional(Type.String({ pattern: PREVIEW_PATTERN, maxLength: PREVIEW_MAX_CHARS })),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: MAX_FILES },
        ),
      },
      { additionalProperties: false },
    ),
  ),
  'attachments.discard': cmd<void>()(
    Type.Object({ uploadIds: Type.Array(Uuid, { maxItems: 100 }) }, { additionalProperties: false }),
  ),
  /** downloads the received files still pending now (they are fetched on their own after each sync) */
  'attachments.fetch': cmd<{ saved: number; refused: number }>()(NoArgs),
  /** Electron: a save dialog, then the file written there; web mode answers `handled: false` and the page reads the bytes */
  'attachments.save': cmd<{ handled: boolean; saved: boolean }>()(
    Type.Object(
      { messageId: Uuid, index: Type.Integer({ minimum: 0, maximum: MAX_FILES - 1 }) },
      { additionalProperties: false },
    ),
  ),
  /** a received file's plaintext from `offset`, at most FILE_CHUNK_BYTES (base64), and its whole size */
  'attachments.read': cmd<{ data: string; size: number }>()(
    Type.Object(
      {
        messageId: Uuid,
        index: Type.Integer({ minimum: 0, maximum: MAX_FILES - 1 }),
        offset: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
  ),

  // live: typing notices, mute, the person's preferences, desktop notifications
  /** `on` while composing (sent at most every 3 s), `off` on send or clear; direct conversations only */
  'conversations.typing': cmd<void>()(
    Type.Object(
      { conversationId: ConvId, state: Type.Union([Type.Literal('on'), Type.Literal('off')]) },
      { additionalProperties: false },
    ),
  ),
  'conversations.mute': cmd<ConversationSummary>()(
    Type.Object({ conversationId: ConvId, muted: Type.Boolean() }, { additionalProperties: false }),
  ),
} as const;
