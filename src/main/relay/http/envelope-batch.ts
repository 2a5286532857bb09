import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import { LIMITS } from '../../../shared/api/common.js';
import { EnvelopeInput, GroupEnvelopeInput } from '../../../shared/api/envelopes.js';
import { checkSealedFields } from '../sealed-fields.js';
import type { DeliveryItem } from '../store/store.js';
import { HttpError } from './errors.js';

const directCheck = Compile(EnvelopeInput);
const groupCheck = Compile(GroupEnvelopeInput);

/** The three accepted body shapes, as a list, and whether the caller sent a batch. */
function itemsOf(body: unknown): { items: unknown[]; batch: boolean } {
  if (Array.isArray(body)) return { items: body, batch: true };
  if (body !== null && typeof body === 'object' && 'envelopes' in body) {
    const keys = Object.keys(body);
    const envelopes = (body as { envelopes: unknown }).envelopes;
    if (keys.length !== 1 || !Array.isArray(envelopes))
      throw new HttpError(400, 'a batch is { "envelopes": [ ... ] } with nothing else beside it', 'invalid-body');
    return { items: envelopes, batch: true };
  }
  if (body !== null && typeof body === 'object') return { items: [body], batch: false };
  throw new HttpError(
    400,
    'the body must be an envelope, an array of envelopes or { "envelopes": [...] }',
    'invalid-body',
  );
}

/**
 * Checks a whole send body, item by item, before anything is stored: one bad envelope refuses
 * the request (all or nothing), and the message names the envelope at fault.
 */
export function parseEnvelopeBatch(body: unknown, group: boolean): { items: DeliveryItem[]; batch: boolean } {
  const { items, batch } = itemsOf(body);
  if (items.length === 0) throw new HttpError(400, 'the batch is empty', 'empty-batch');
  if (items.length > LIMITS.batchMax)
    throw new HttpError(413, `at most ${LIMITS.batchMax} envelopes per request`, 'batch-too-large');
  const check = group ? groupCheck : directCheck;
  const out: DeliveryItem[] = [];
  items.forEach((raw, i) => {
    const where = batch ? `envelopes[${i}]` : 'envelope';
    if (!check.Check(raw)) {
      const first = check.Errors(raw)[0];
      const path = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, '.') : '';
      throw new HttpError(
        400,
        `${where}${path ? '.' + path : ''}: ${first?.message ?? 'is malformed'}`,
        'invalid-envelope',
      );
    }
    const input = raw as {
      toAddress: string;
      recipientDeviceKey?: string | null;
      ciphertext: string;
      ephemeralPublicKey: string;
      nonce: string;
      asRequest?: boolean;
      stakeRef?: string;
    };
    const fields = checkSealedFields(input, LIMITS.ciphertextMaxBytes);
    if ('error' in fields) throw new HttpError(fields.status, `${where}: ${fields.error}`, fields.code);
    out.push({
      toAddress: input.toAddress.toLowerCase(),
      recipientDeviceKey: input.recipientDeviceKey ? input.recipientDeviceKey.toLowerCase() : null,
      ciphertext: fields.ciphertext,
      ephemeralPublicKey: fields.ephemeralPublicKey,
      nonce: fields.nonce,
      asRequest: input.asRequest === true,
      stakeRef: input.stakeRef?.toLowerCase(),
    });
  });
  return { items: out, batch };
}

/** A body validator that lets everything through: the send routes check bodies themselves. */
export const acceptAnyBody = (_: { schema: TSchema }) => (value: unknown) => ({ value });
