import { useIntl } from 'react-intl';
import { useStore } from '../store.js';

/** How far a backup's export or restore got (main's `backup.progress` events), as a bar. */
export function BackupProgressBar({ op }: { op: 'export' | 'restore' }) {
  const p = useStore((s) => s.backupProgress);
  const intl = useIntl();
  if (!p || p.op !== op) return null;
  const pct = p.total > 0 ? Math.min(100, Math.round((100 * p.done) / p.total)) : 0;
  const label =
    op === 'export'
      ? intl.formatMessage({
          id: 'backup.progress.export',
          defaultMessage: 'Backup progress',
          description: 'Accessible name of the progress bar while a backup is written.',
        })
      : intl.formatMessage({
          id: 'backup.progress.restore',
          defaultMessage: 'Restore progress',
          description: 'Accessible name of the progress bar while a backup is restored.',
        });
  return (
    <div className="backup-progress">
      <progress max={100} value={pct} aria-label={label} />
      <span className="field-hint" aria-live="polite">
        {intl.formatNumber(pct / 100, { style: 'percent' })}
      </span>
    </div>
  );
}
