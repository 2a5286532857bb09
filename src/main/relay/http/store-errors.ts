import { StoreError, type StoreErrorCode } from '../store/store.js';
import { HttpError } from './errors.js';

const STATUS: Record<StoreErrorCode, number> = {
  'device-key-mismatch': 400,
  'not-a-member': 400,
  'handle-taken': 409,
  'device-exists': 409,
  'not-found': 404,
  'creator-cannot-leave': 409,
  'nonce-invalid': 401,
  'recipient-full': 429,
  'requests-full': 429,
  'too-many-requests-pending': 429,
  'too-many-devices': 409,
  'too-many-keys': 409,
  'too-many-groups': 429,
  'too-many-entries': 409,
  'too-many-tokens': 409,
  'blob-quota-full': 429,
};

/** Runs a store call and turns its refusals into HTTP answers. */
export async function fromStore<T>(work: Promise<T>, describeIndex?: (i: number) => string): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof StoreError) {
      const where = err.index !== undefined && describeIndex ? describeIndex(err.index) + ': ' : '';
      throw new HttpError(STATUS[err.code], where + err.message, err.code);
    }
    throw err;
  }
}
