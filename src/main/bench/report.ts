/** Figures of a bench run, their targets, and how they are printed (JSON and a table). */

export interface Target {
  op: '>=' | '<=';
  value: number;
  /** how the target was set, e.g. "0.35 × echo" */
  note?: string;
}

export interface Figure {
  section: string;
  /** stable key for tools, e.g. `relay.send.single` */
  key: string;
  label: string;
  value: number;
  unit: string;
  target?: Target;
  pass?: boolean;
  /** conditions worth knowing when reading the figure */
  detail?: string;
}

export function figure(
  section: string,
  key: string,
  label: string,
  value: number,
  unit: string,
  extra: { target?: Target; detail?: string } = {},
): Figure {
  const f: Figure = { section, key: `${section}.${key}`, label, value, unit, ...extra };
  if (extra.target) f.pass = extra.target.op === '>=' ? value >= extra.target.value : value <= extra.target.value;
  return f;
}

export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 100) return Math.round(v).toLocaleString('en-US');
  if (Math.abs(v) >= 1) return v.toFixed(2);
  return v.toFixed(3);
}

export function table(figures: Figure[]): string {
  const rows = figures.map((f) => [
    f.section,
    f.label,
    `${formatNumber(f.value)} ${f.unit}`,
    f.target ? `${f.target.op} ${formatNumber(f.target.value)}${f.target.note ? ` (${f.target.note})` : ''}` : '',
    f.pass === undefined ? '' : f.pass ? 'pass' : 'FAIL',
  ]);
  const head = ['section', 'figure', 'value', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}
