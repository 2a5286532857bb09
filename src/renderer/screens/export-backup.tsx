import { useState } from 'react';
import { BACKUP_PASSPHRASE_MIN, backupCounts } from '../../shared/backup.js';
import { BackupProgressBar } from '../components/backup-progress-bar.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** Settings → Backup (issue 13): a passphrase typed twice, then the file saved (a dialog) or downloaded (web mode). */
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
          setDone(`${where}: ${backupCounts(r.value)}.`);
          showToast('success', 'Backup exported.');
        }}
      >
        <p className="field-hint">
          One file with your contacts, conversations, messages, groups, settings and files, encrypted with a passphrase you choose. It never holds your wallet key: your recovery phrase restores the wallet, then the backup restores its history.
        </p>
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
