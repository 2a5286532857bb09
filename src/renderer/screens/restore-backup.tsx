import { useState } from 'react';
import { backupCounts } from '../../shared/backup.js';
import { BackupProgressBar } from '../components/backup-progress-bar.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** Onboarding's "Restore from backup", after a wallet was imported (issue 13): a file, its passphrase, progress. */
export function RestoreBackup({ onDone }: { onDone: () => void }) {
  const restoreBackup = useStore((s) => s.restoreBackup);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(restoreBackup);
  const [file, setFile] = useState<File | null>(null);
  const [pass, setPass] = useState('');
  return (
    <section aria-labelledby="restore-title">
      <h1 id="restore-title">Restore from backup</h1>
      <p className="lead">If you exported a backup of this wallet’s history, restore it now: conversations, messages and files come back as they were. Or skip this and start fresh.</p>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!file) return;
          const r = await action.run(file, pass);
          if (!r.ok) return;
          showToast('success', `Restored ${backupCounts(r.value)}.`);
          onDone();
        }}
      >
        <label className="field">
          <span className="field-label">Backup file (.relaybackup)</span>
          <input type="file" accept=".relaybackup" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label className="field">
          <span className="field-label">Backup passphrase</span>
          <input type="password" value={pass} onChange={(e) => setPass(e.target.value)} autoComplete="current-password" />
        </label>
        <BackupProgressBar op="restore" />
        <FormError error={action.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={onDone} disabled={action.busy}>
            Skip
          </button>
          <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy || !file || pass.length === 0}>
            {action.busy ? 'Restoring…' : 'Restore'}
          </button>
        </div>
      </form>
    </section>
  );
}
