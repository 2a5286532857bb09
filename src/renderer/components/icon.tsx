/** A small hand-drawn icon set (24px grid, stroke icons); decorative unless labelled by the control. */
const paths = {
  chat: 'M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.5 4v-4H6.5A2.5 2.5 0 0 1 4 13.5z',
  inbox: 'M3 13h5l1.5 3h5L16 13h5M5.5 5h13L21 13v5.5A1.5 1.5 0 0 1 19.5 20h-15A1.5 1.5 0 0 1 3 18.5V13z',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zm9 3-4.35-4.35',
  users:
    'M16 20v-1.5a3.5 3.5 0 0 0-3.5-3.5h-5A3.5 3.5 0 0 0 4 18.5V20M10 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm10 9v-1.5a3.5 3.5 0 0 0-2.5-3.35M15 4.15a3.5 3.5 0 0 1 0 6.7',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7.5 7.5 0 0 0-2-1.2L14.5 3h-4l-.4 2.6a7.5 7.5 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7.5 7.5 0 0 0 2 1.2l.4 2.6h4l.4-2.6a7.5 7.5 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.07-.4.1-.8.1-1.2z',
  send: 'M4 12 20 4l-3.5 16-4.5-6.5zm8 1.5L20 4',
  check: 'M5 12.5 10 17 19 7',
  checks: 'M2.5 12.5 7 17l8.5-10M11.5 16.5l.5.5 8.5-10',
  bell: 'M6 16v-5a6 6 0 0 1 12 0v5l1.5 2h-15zm4 4.5a2 2 0 0 0 4 0',
  bellOff: 'M6 16v-5a6 6 0 0 1 12 0v5l1.5 2h-15zm4 4.5a2 2 0 0 0 4 0M3.5 3.5l17 17',
  clock: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-13v4.5l3 2',
  alert: 'M12 9v4m0 3.5v.01M10.3 4.2 2.6 17.5A2 2 0 0 0 4.3 20.5h15.4a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0z',
  verified:
    'm12 2.5 2.4 1.8 3 .1.9 2.8 2.3 1.9-.9 2.9.9 2.9-2.3 1.9-.9 2.8-3 .1L12 21.5l-2.4-1.8-3-.1-.9-2.8-2.3-1.9.9-2.9-.9-2.9 2.3-1.9.9-2.8 3-.1zM8.5 12l2.5 2.5 4.5-5',
  copy: 'M9 9h10.5v11.5H9zM15 9V4.5H4.5V15H9',
  plus: 'M12 5v14M5 12h14',
  lock: 'M6 11h12v9.5H6zm2.5 0V7.5a3.5 3.5 0 0 1 7 0V11',
  x: 'M6 6l12 12M18 6 6 18',
  refresh: 'M20 11a8 8 0 0 0-14.9-3.5M4 4v4h4m-4 5a8 8 0 0 0 14.9 3.5M20 20v-4h-4',
  key: 'M14.5 14a5 5 0 1 0-4.9-4L3 16.5V20h3.5v-2h2v-2h2l1.3-1.3a5 5 0 0 0 2.7.3zM16 8.5v.01',
  server: 'M4 4h16v6H4zm0 10h16v6H4zm3-7v.01M7 17v.01',
  shield: 'M12 3 4.5 6v5.5c0 4.5 3.2 8.3 7.5 9.5 4.3-1.2 7.5-5 7.5-9.5V6z',
  shieldCheck: 'M12 3 4.5 6v5.5c0 4.5 3.2 8.3 7.5 9.5 4.3-1.2 7.5-5 7.5-9.5V6zM9 12l2.2 2.2L15.5 10',
  bot: 'M7 9h10a3 3 0 0 1 3 3v4a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3v-4a3 3 0 0 1 3-3zm5-5v5m-3 4.5v1m6-1v1',
  arrowLeft: 'M19 12H5m6-6-6 6 6 6',
  globe:
    'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3z',
  laptop: 'M5 5h14v10H5zM2.5 19h19',
  wifi: 'M2.5 8.5a14 14 0 0 1 19 0M5.5 12a9.5 9.5 0 0 1 13 0M8.5 15.5a5 5 0 0 1 7 0M12 19v.01',
  phrase: 'M5 4h10l4 4v12H5zm10 0v4h4M8.5 12h7m-7 4h5',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4m-4-4h11',
  sparkle: 'M12 3v4m0 10v4M3 12h4m10 0h4M6 6l2.5 2.5m7 7L18 18M6 18l2.5-2.5m7-7L18 6',
  more: 'M6 12v.01M12 12v.01M18 12v.01',
  pencil: 'M4 20h4L19 9l-4-4L4 16zm9-13 4 4',
  trash: 'M4 7h16M9 7V4.5h6V7m-8.5 0 1 13h9l1-13M10 11v5m4-5v5',
  paperclip: 'M20 11.5 12.2 19.3a5 5 0 0 1-7.1-7.1l8.1-8.1a3.3 3.3 0 0 1 4.7 4.7l-8.1 8.1a1.7 1.7 0 0 1-2.4-2.4L15 7',
  file: 'M6 3h8l4 4v14H6zm8 0v4h4',
  download: 'M12 4v11m-4.5-4.5L12 15l4.5-4.5M5 20h14',
  timer: 'M12 21a8 8 0 1 0 0-16 8 8 0 0 0 0 16zm0-12v4l2.5 1.5M9.5 2.5h5',
} as const;

export type IconName = keyof typeof paths;

/** Icons that point along the line (back, send, sign out): mirrored in right-to-left text (styles.css). */
const POINTING: ReadonlySet<IconName> = new Set(['arrowLeft', 'send', 'logout']);

export function Icon({ name, size = 18, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={['icon', POINTING.has(name) ? 'icon-mirror' : '', className ?? ''].filter(Boolean).join(' ')}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[name]} />
    </svg>
  );
}
