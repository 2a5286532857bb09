/**
 * The vault refuses an empty passphrase. A profile created without one is still encrypted,
 * under this well-known stand-in: the file format stays uniform (and can later be re-keyed
 * with a real passphrase), but it protects nothing against someone who can read the folder.
 */
export const EMPTY_PASSPHRASE_STANDIN = 'relay-messenger/no-passphrase';

export function effectivePassphrase(passphrase: string): string {
  return passphrase === '' ? EMPTY_PASSPHRASE_STANDIN : passphrase;
}
