import type { IconName } from '../catalogue/types.ts';

/** Icons the frame itself uses, beside the catalogue's tool icons. */
export type UiIconName =
  | 'sun'
  | 'moon'
  | 'menu'
  | 'close'
  | 'chevron-down'
  | 'chevron-right'
  | 'arrow-right'
  | 'shield'
  | 'bolt'
  | 'offline'
  | 'device'
  | 'infinity'
  | 'user-off'
  | 'upload'
  | 'check'
  | 'download'
  | 'mail'
  | 'twitter'
  | 'instagram'
  | 'facebook'
  | 'tools'
  | 'home'
  | 'info'
  | 'heart';

/**
 * Every icon as 24×24 stroke paths (currentColor), so icons follow the text colour and the theme.
 * Drawn here rather than taken from an icon font: no extra request, nothing from another origin.
 */
const PATHS: Record<IconName | UiIconName, string[]> = {
  // Tools (the catalogue's IconName set)
  merge: [
    'M4 4h6v6H4z',
    'M4 14h6v6H4z',
    'M10 7h4a3 3 0 0 1 3 3v1',
    'M10 17h4a3 3 0 0 0 3-3v-1',
    'M17 12h4',
    'M19 10l2 2-2 2',
  ],
  split: ['M12 3v18', 'M3 7h6v10H3z', 'M15 7h6v10h-6z', 'M8 3l4 2 4-2'],
  compress: ['M4 9h16', 'M4 15h16', 'M12 2v5', 'M9 5l3 3 3-3', 'M12 22v-5', 'M9 19l3-3 3 3'],
  word: ['M6 2h9l5 5v15H6z', 'M15 2v5h5', 'M8.5 11l1.5 6 2-5 2 5 1.5-6'],
  powerpoint: ['M6 2h9l5 5v15H6z', 'M15 2v5h5', 'M10 18v-7h2.5a2 2 0 0 1 0 4H10'],
  excel: ['M6 2h9l5 5v15H6z', 'M15 2v5h5', 'M9 11l6 7', 'M15 11l-6 7'],
  image: ['M3 5h18v14H3z', 'M3 16l5-5 4 4 3-3 6 6', 'M15.5 8.5h.01'],
  organize: ['M4 4h7v7H4z', 'M13 4h7v7h-7z', 'M4 13h7v7H4z', 'M13 13h7v7h-7z'],
  edit: ['M4 20h4L19 9l-4-4L4 16z', 'M13.5 6.5l4 4', 'M13 20h7'],
  rotate: ['M20 12a8 8 0 1 1-2.34-5.66', 'M20 4v5h-5'],
  unlock: ['M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 7.75-1.4', 'M12 15v2'],
  lock: ['M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 8 0v4', 'M12 15v2'],
  watermark: ['M6 2h9l5 5v15H6z', 'M15 2v5h5', 'M12 10c-2 2.6-3 4.2-3 5.5a3 3 0 0 0 6 0c0-1.3-1-2.9-3-5.5z'],
  'image-compress': ['M3 5h12v12H3z', 'M3 14l4-4 3 3 2-2 3 3', 'M18 9v10', 'M15.5 16.5L18 19l2.5-2.5', 'M21 5h-6'],
  key: ['M8 15a4 4 0 1 1 0-8 4 4 0 0 1 0 8z', 'M12 11h9', 'M18 11v3', 'M21 11v2'],
  text: ['M4 6V4h16v2', 'M12 4v16', 'M9 20h6'],
  calendar: ['M4 5h16v16H4z', 'M4 10h16', 'M8 3v4', 'M16 3v4', 'M8 14h3v3H8z'],
  scale: ['M5 4h14l1.5 16h-17z', 'M12 12l3-4', 'M9 8.5a4.5 4.5 0 0 1 6 0'],
  palette: [
    'M12 3a9 9 0 1 0 0 18c1.2 0 1.6-.8 1.6-1.6 0-.9-.8-1.4-.8-2.4 0-1.1.9-2 2-2H17a4 4 0 0 0 4-4c0-4.4-4-8-9-8z',
    'M7.5 11h.01',
    'M10 7h.01',
    'M14.5 7h.01',
  ],
  ruler: ['M3 16L16 3l5 5L8 21z', 'M7 12l2 2', 'M10 9l2 2', 'M13 6l2 2'],
  braces: [
    'M8 3H7a2 2 0 0 0-2 2v4a2 2 0 0 1-2 2 2 2 0 0 1 2 2v4a2 2 0 0 0 2 2h1',
    'M16 3h1a2 2 0 0 1 2 2v4a2 2 0 0 0 2 2 2 2 0 0 0-2 2v4a2 2 0 0 1-2 2h-1',
  ],
  // Frame
  sun: [
    'M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
    'M12 2v2',
    'M12 20v2',
    'M4.9 4.9l1.4 1.4',
    'M17.7 17.7l1.4 1.4',
    'M2 12h2',
    'M20 12h2',
    'M4.9 19.1l1.4-1.4',
    'M17.7 6.3l1.4-1.4',
  ],
  moon: ['M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z'],
  menu: ['M4 6h16', 'M4 12h16', 'M4 18h16'],
  close: ['M6 6l12 12', 'M18 6L6 18'],
  'chevron-down': ['M6 9l6 6 6-6'],
  'chevron-right': ['M9 6l6 6-6 6'],
  'arrow-right': ['M5 12h14', 'M13 6l6 6-6 6'],
  shield: ['M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z', 'M8.5 12l2.5 2.5 4.5-5'],
  bolt: ['M13 2L4 14h7l-1 8 9-12h-7z'],
  offline: [
    'M2 8.8a15 15 0 0 1 4.2-2.5',
    'M22 8.8A15 15 0 0 0 10.7 5',
    'M5 12.5a10 10 0 0 1 3.4-2',
    'M19 12.5a10 10 0 0 0-2.6-1.7',
    'M8.5 16a5 5 0 0 1 7 0',
    'M12 20h.01',
    'M3 3l18 18',
  ],
  device: ['M7 2h10v20H7z', 'M11 18h2'],
  infinity: [
    'M12 12c-2-2.7-3.6-4-5.5-4a4 4 0 0 0 0 8c1.9 0 3.5-1.3 5.5-4s3.6-4 5.5-4a4 4 0 0 1 0 8c-1.9 0-3.5-1.3-5.5-4z',
  ],
  'user-off': ['M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M4 21a8 8 0 0 1 12.5-6.6', 'M17 17l4 4', 'M21 17l-4 4'],
  upload: ['M12 16V4', 'M7 9l5-5 5 5', 'M4 16v4h16v-4'],
  check: ['M5 12.5l4.5 4.5L19 7'],
  download: ['M12 4v12', 'M7 11l5 5 5-5', 'M4 20h16'],
  mail: ['M3 5h18v14H3z', 'M3 6l9 7 9-7'],
  twitter: ['M4 4l16 16', 'M20 4L4 20'],
  instagram: ['M4 4h16v16H4z', 'M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M17 7h.01'],
  facebook: ['M14 8h3V4h-3a4 4 0 0 0-4 4v3H7v4h3v7h4v-7h3l1-4h-4V8z'],
  tools: ['M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.8-.7-.7-2.8z'],
  home: ['M3 11l9-8 9 8', 'M5 10v10h14V10', 'M10 20v-6h4v6'],
  info: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 11v5', 'M12 8h.01'],
  heart: ['M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z'],
};

/** A colour family per tool icon, so cards are told apart at a glance (CSS classes tone-<name>). */
const TONES: Record<IconName, 'red' | 'blue' | 'green' | 'orange' | 'purple' | 'teal' | 'amber' | 'pink'> = {
  merge: 'blue',
  split: 'blue',
  organize: 'blue',
  rotate: 'blue',
  edit: 'pink',
  watermark: 'pink',
  compress: 'teal',
  word: 'blue',
  powerpoint: 'orange',
  excel: 'green',
  image: 'purple',
  unlock: 'amber',
  lock: 'amber',
  'image-compress': 'purple',
  key: 'amber',
  text: 'teal',
  calendar: 'red',
  scale: 'green',
  palette: 'pink',
  ruler: 'orange',
  braces: 'purple',
};

export function toneClass(icon: IconName): string {
  return `tone-${TONES[icon]}`;
}

export const ICON_NAMES = Object.keys(PATHS) as (IconName | UiIconName)[];

/** An inline SVG icon; decorative (aria-hidden) unless given a label. */
export function Icon({
  name,
  size = 24,
  label,
  className,
}: {
  name: IconName | UiIconName;
  size?: number;
  label?: string;
  className?: string;
}) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      {PATHS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
