/** Initials on a colour derived from the address, so a person keeps one colour everywhere. */
function hue(seed: string): number {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  return h % 360;
}

function initials(name: string): string {
  const clean = name.replace(/^[@#]/, '');
  if (/^0x[0-9a-f]/i.test(clean)) return clean.slice(2, 4).toUpperCase();
  const parts = clean.split(/[\s_-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? parts[0]?.[1] ?? '')).toUpperCase();
}

export function Avatar({
  name,
  seed,
  image,
  size = 36,
  square,
}: {
  name: string;
  seed: string;
  image?: string | null;
  size?: number;
  square?: boolean;
}) {
  const style = {
    width: size,
    height: size,
    fontSize: Math.round(size * 0.38),
    ['--avatar-hue' as string]: String(hue(seed.toLowerCase())),
  };
  const cls = square ? 'avatar avatar-square' : 'avatar';
  // Only inline images: a remote avatar URL would tell a third party who opened what.
  if (image && image.startsWith('data:image/')) return <img className={cls} style={style} src={image} alt="" />;
  return (
    <span className={cls} style={style} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
