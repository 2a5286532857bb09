import { useStore } from '../store/store.js';

/** How far a backup's export or restore got (main's `backup.progress` events), as a bar. */
export function BackupProgressBar({ op }: { op: 'export' | 'restore' }) {
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
