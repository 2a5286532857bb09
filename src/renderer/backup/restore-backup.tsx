import { FormattedMessage, useIntl } from 'react-intl';
import { useState } from 'react';
import { backupCountsText } from './backup-counts.js';
import { BackupProgressBar } from './backup-progress-bar.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/** Onboarding's "Restore from backup", after a wallet was imported: a file, its passphrase, progress. */
export function RestoreBackup({ onDone }: { onDone: () => void }) {
  const restoreBackup = useStore((s) => s.restoreBackup);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(restoreBackup);
  const [file, setFile] = useState<File | null>(null);
  const [pass, setPass] = useState('');
  const intl = useIntl();
  return (
    <section aria-labelledby="restore-title">
      <h1 id="restore-title">
        <FormattedMessage
          id="restore.title"
          defaultMessage="Restore from backup"
          description="Heading of the onboarding step that restores a backup."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="restore.lead"
          defaultMessage="If you exported a backup of this wallet’s history, restore it now: conversations, messages and files come back as they were. Or skip this and start fresh."
          description="Explains restoring a backup."
        />
      </p>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!file) return;
          const r = await action.run(file, pass);
          if (!r.ok) return;
          showToast(
            'success',
            intl.formatMessage(
              {
                id: 'restore.done',
                defaultMessage: 'Restored {counts}.',
                description: 'Notice after a restore; counts is e.g. “3 conversations, 20 messages, 1 file”.',
              },
              { counts: backupCountsText(intl, r.value) },
            ),
          );
          onDone();
        }}
      >
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="restore.file"
              defaultMessage="Backup file (.relaybackup)"
              description="Label of the backup file picker; keep the file extension."
            />
          </span>
          <input type="file" accept=".relaybackup" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="restore.passphrase"
              defaultMessage="Backup passphrase"
              description="Label of the backup passphrase field."
            />
          </span>
          <input
            type="password"
            value={pass}
            onChange={(e) => setPass(e.target.value)}
            autoComplete="current-password"
          />
        </label>
        <BackupProgressBar op="restore" />
        <FormError error={action.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={onDone} disabled={action.busy}>
            <FormattedMessage id="restore.skip" defaultMessage="Skip" description="Button that skips restoring." />
          </button>
          <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy || !file || pass.length === 0}>
            {action.busy
              ? intl.formatMessage({
                  id: 'restore.restoring',
                  defaultMessage: 'Restoring…',
                  description: 'Restore button while restoring.',
                })
              : intl.formatMessage({
                  id: 'restore.submit',
                  defaultMessage: 'Restore',
                  description: 'Button that restores the backup.',
                })}
          </button>
        </div>
      </form>
    </section>
  );
}
