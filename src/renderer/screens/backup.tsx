import { useState } from 'react';
import { BACKUP_PASSPHRASE_MIN, type BackupSummary } from '../../shared/backup.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** Backups (issue 13): Settings' "Export backup" and onboarding's "Restore from backup". */

function BackupProgressBar({ op }: { op: 'export' | 'restore' }) {
  const p = useStore((s) => s.backupProgress);
  if (!p || p.op !== op) return null;
  const pct = p.total > 0 ? Math.min(100, Math.round((100 * p.done) / p.total)) : 0;
  const label = op === 'export' ? 'Backup progress' : 'Restore progress';
  return (
    <div className="backup-progress">
      <progress max={100} value={pct} aria-label={label} />
      <span className="field-hint" aria-live="polite">
        {pct}%
      </span>
    </div>
  );
}

function counted(s: BackupSummary): string {
  return `${s.conversations} conversation${s.conversations === 1 ? '' : 's'}, ${s.messages} message${s.messages === 1 ? '' : 's'}, ${s.files} file${s.files === 1 ? '' : 's'}`;
}

export function ExportBackup() {
  const exportBackup = useStore((s) => s.exportBackup);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(exportBackup);
  const [pass, setPass] = useState('');
  const [again, setAgain] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const short = pass.length > 0 && pass.length < BACKUP_PASSPHRASE_MIN;
  const differ = again.length > 0 && again !== pass;
  return (
    <section className="card section" aria-labelledby="backup-title">
      <h2 id="backup-title">Backup</h2>
      <p className="field-hint">
        One file with your contacts, conversations, messages, groups, settings and files, encrypted with a passphrase you choose. It never holds your wallet key: your recovery phrase restores the wallet, then the backup restores its history.
      </p>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          setDone(null);
          const r = await action.run(pass);
          if (!r.ok || r.value === null) return;
          setPass('');
          setAgain('');
          const where = r.value.savedTo ? `Saved to ${r.value.savedTo}` : 'Downloaded';
          setDone(`${where}: ${counted(r.value)}.`);
          showToast('success', 'Backup exported.');
        }}
      >
        <label className="field">
          <span className="field-label">Backup passphrase</span>
          <input type="password" value={pass} onChange={(e) => setPass(e.target.value)} autoComplete="new-password" aria-invalid={short} aria-describedby="backup-pass-hint" />
          <span className={short ? 'field-hint danger' : 'field-hint'} id="backup-pass-hint">
            At least {BACKUP_PASSPHRASE_MIN} characters. Without it the backup cannot be opened: keep it somewhere safe.
          </span>
        </label>
        <label className="field">
          <span className="field-label">Type it again</span>
          <input type="password" value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" aria-invalid={differ} aria-describedby="backup-again-hint" />
          <span className={differ ? 'field-hint danger' : 'field-hint'} id="backup-again-hint">
            {differ ? 'The two passphrases differ.' : 'The same passphrase, to be sure of it.'}
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
          <button type="submit" className="btn btn-secondary" disabled={action.busy || pass.length < BACKUP_PASSPHRASE_MIN || again !== pass}>
            {action.busy ? 'Exporting…' : 'Export backup'}
          </button>
        </div>
      </form>
    </section>
  );
}

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
          showToast('success', `Restored ${counted(r.value)}.`);
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
