import { useIntl } from 'react-intl';

/** A transfer's bar: `role="progressbar"` with its value, so it is said, not only drawn. */
export function ProgressBar({ label, done, total }: { label: string; done: number; total: number }) {
  const intl = useIntl();
  const percent = total > 0 ? Math.min(100, Math.round((done * 100) / total)) : 0;
  return (
    <div
      className="file-progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={intl.formatNumber(percent / 100, { style: 'percent' })}
    >
      <span style={{ width: `${percent}%` }} />
    </div>
  );
}
