/**
 * What a refused sign-in is told. Every refusal says what to do next, since the person reading
 * it is a teammate who cannot see the relay's settings: ask for an invite, or ask the operator.
 */
import { forbidden, type HttpError } from '../http/errors.js';
import type { Admission } from '../store/moderation-rows.js';

export function admissionRefusal(admission: Exclude<Admission, 'admitted'>): HttpError {
  switch (admission) {
    case 'invite-required':
      return forbidden(
        'this relay is invite-only: ask its operator or a teammate for an invite, then sign in with its code',
        'invite-required',
      );
    case 'invite-invalid':
      return forbidden(
        'this invite code is used up, expired or revoked: ask the relay operator for a new invite',
        'invite-invalid',
      );
    case 'registration-closed':
      return forbidden(
        'this relay takes no new accounts (registration is closed): ask its operator for access',
        'registration-closed',
      );
    case 'suspended':
      return forbidden('this wallet is suspended on this relay: ask its operator', 'suspended');
  }
}
