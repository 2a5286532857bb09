/** Draws main's module rows (1 = dark) with the 4-module quiet zone; dark on white whatever the theme, so it scans. */
export function QrCode({ rows, label }: { rows: string[]; label: string }) {
  const n = rows.length + 8;
  const d = rows
    .flatMap((row, y) => [...row].flatMap((m, x) => (m === '1' ? [`M${x + 4} ${y + 4}h1v1h-1z`] : [])))
    .join('');
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${n} ${n}`}
      width={200}
      height={200}
      shapeRendering="crispEdges"
      role="img"
      aria-label={label}
    >
      <rect width={n} height={n} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
