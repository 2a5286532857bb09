/**
 * The vault refuses an empty passphrase. A profile created without one is still encrypted,
 * under a well-known stand-in (defined beside the codec, which derives its key cheaply): the
 * file format stays uniform (and can later be re-keyed with a real passphrase), but it
 * protects nothing against someone who can read the folder.
 */
import { EMPTY_PASSPHRASE_STANDIN } from '../../vault/keys/secret-codec.js';

export { EMPTY_PASSPHRASE_STANDIN };

export function effectivePassphrase(passphrase: string): string {
  return passphrase === '' ? EMPTY_PASSPHRASE_STANDIN : passphrase;
}
