import { ErrorBody } from '../../../shared/api/common.js';

const ERROR_TEXT: Record<number, string> = {
  400:
    'Bad request: the body, query or path is malformed (`invalid-request`); text the relay stores or searches (labels, names, ' +
    'avatars, the directory query) with control characters, and group or token names that are empty or hold bidi or zero-width characters, are `invalid-text`',
  401: 'Missing or invalid credential',
  403: 'Not allowed for this caller',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Too large: over 1 MiB of body, 100 envelopes or 64 KiB of ciphertext',
  429:
    'Rate limit exceeded (120 requests a rolling minute per credential; per peer address without a valid one), see Retry-After; ' +
    'on sends also `recipient-full`, `requests-full` or `too-many-requests-pending` (queue quotas), on invitations `too-many-requests-pending`, ' +
    'on group creation `too-many-groups`',
  503: 'The relay is busy or shutting down (see Retry-After), or the stake chain cannot be read (code stake-unverifiable): nothing was done, try again later',
  507: 'The relay is low on disk space (`storage-full`); sends and other writes (groups, handles, minted keys and tokens) are refused, pulls, acks and sign-in work',
};

/** Error responses for the OpenAPI document, each `{ error }`. */
export function errorResponses(...codes: number[]): Record<number, typeof ErrorBody> {
  const out: Record<number, typeof ErrorBody> = {};
  for (const c of codes) out[c] = { ...ErrorBody, description: ERROR_TEXT[c] } as typeof ErrorBody;
  return out;
}

type Security = Array<Record<string, string[]>>;
export const apiKeyAuth: Security = [{ apiKey: [] }];
export const apiKeyOrTokenAuth: Security = [{ apiKey: [] }, { groupToken: [] }];
