/**
 * The backup room's part of the command table (the Messenger's `handlers()` merges it): the
 * page exports, downloads, uploads and restores through the profile's backup folder.
 */
import type { FeatureHandlers } from '../core/feature-context.js';
import type { BackupFolder } from './backups.js';

export function backupHandlers(
  folder: BackupFolder,
): FeatureHandlers<'backup.export' | 'backup.download' | 'backup.upload' | 'backup.restore'> {
  return {
    'backup.export': (a) => folder.export(a.passphrase),
    'backup.download': (a) => folder.download(a.name, a.offset),
    'backup.upload': (a) => folder.upload(a.name, a.offset, a.data),
    'backup.restore': (a) => folder.restore(a.name, a.passphrase),
  };
}
