import { useIntl, FormattedMessage } from 'react-intl';
import { useState } from 'react';
import { BACKUP_PASSPHRASE_MIN } from '../../shared/backup/backup.js';
import { backupCountsText } from './backup-counts.js';
import { BackupProgressBar } from './backup-progress-bar.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/** Settings → Backup: a passphrase typed twice, then the file saved (a dialog) or downloaded (web mode). */
export function ExportBackup() {
  const exportBackup = useStore((s) => s.exportBackup);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(exportBackup);
  const [pass, setPass] = useState('');
  const [again, setAgain] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const short = pass.length > 0 && pass.length < BACKUP_PASSPHRASE_MIN;
  const differ = again.length > 0 && again !== pass;
  const intl = useIntl();
  return (
    <section className="card section" aria-labelledby="backup-title">
      <h2 id="backup-title">
        <FormattedMessage
          id="backup.title"
          defaultMessage="Backup"
          description="Settings section that exports a backup."
        />
      </h2>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          setDone(null);
          const r = await action.run(pass);
          if (!r.ok || r.value === null) return;
          setPass('');
          setAgain('');
          const counts = backupCountsText(intl, r.value);
          setDone(
            r.value.savedTo
              ? intl.formatMessage(
                  {
                    id: 'backup.savedTo',
                    defaultMessage: 'Saved to {path}: {counts}.',
                    description: 'After exporting a backup to a file; path is where, counts what it holds.',
                  },
                  { path: r.value.savedTo, counts },
                )
              : intl.formatMessage(
                  {
                    id: 'backup.downloaded',
                    defaultMessage: 'Downloaded: {counts}.',
                    description: 'After a backup was downloaded (web mode); counts is what it holds.',
                  },
                  { counts },
                ),
          );
          showToast(
            'success',
            intl.formatMessage({
              id: 'backup.exported',
              defaultMessage: 'Backup exported.',
              description: 'Notice after exporting a backup.',
            }),
          );
        }}
      >
        <p className="field-hint">
          <FormattedMessage
            id="backup.lead"
            defaultMessage="One file with your contacts, conversations, messages, groups, settings and files, encrypted with a passphrase you choose. It never holds your wallet key: your recovery phrase restores the wallet, then the backup restores its history."
            description="Explains what a backup holds."
          />
        </p>
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="backup.passphrase"
              defaultMessage="Backup passphrase"
              description="Label of the passphrase that encrypts the backup."
            />
          </span>
          <input
            type="password"
            value={pass}
            onChange={(e) => setPass(e.target.value)}
            autoComplete="new-password"
            aria-invalid={short}
            aria-describedby="backup-pass-hint"
          />
          <span className={short ? 'field-hint danger' : 'field-hint'} id="backup-pass-hint">
            <FormattedMessage
              id="backup.passphraseHint"
              defaultMessage="At least {min, number} characters. Without it the backup cannot be opened: keep it somewhere safe."
              description="Rule and warning under the backup passphrase."
              values={{ min: BACKUP_PASSPHRASE_MIN }}
            />
          </span>
        </label>
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="backup.again"
              defaultMessage="Type it again"
              description="Label of the field that repeats the backup passphrase."
            />
          </span>
          <input
            type="password"
            value={again}
            onChange={(e) => setAgain(e.target.value)}
            autoComplete="new-password"
            aria-invalid={differ}
            aria-describedby="backup-again-hint"
          />
          <span className={differ ? 'field-hint danger' : 'field-hint'} id="backup-again-hint">
            {differ
              ? intl.formatMessage({
                  id: 'backup.differ',
                  defaultMessage: 'The two passphrases differ.',
                  description: 'Error when the repeated passphrase differs.',
                })
              : intl.formatMessage({
                  id: 'backup.againHint',
                  defaultMessage: 'The same passphrase, to be sure of it.',
                  description: 'Hint under the repeated passphrase.',
                })}
          </span>
        </label>
        <BackupProgressBar op="export" />
        <FormError error={action.error} />
        {done && (
          <p className="note" role="status">
            <Icon name="check" size={16} /> {done}
          </p>
        )}
        <div className="row">
          <button
            type="submit"
            className="btn btn-secondary"
            disabled={action.busy || pass.length < BACKUP_PASSPHRASE_MIN || again !== pass}
          >
            {action.busy
              ? intl.formatMessage({
                  id: 'backup.exporting',
                  defaultMessage: 'Exporting…',
                  description: 'Export button while exporting.',
                })
              : intl.formatMessage({
                  id: 'backup.export',
                  defaultMessage: 'Export backup',
                  description: 'Button that exports a backup.',
                })}
          </button>
        </div>
      </form>
    </section>
  );
}
