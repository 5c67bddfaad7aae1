import type { UiIconName } from './icon.tsx';

/** The header's page links; the phone's side menu repeats them. */
export const MAIN_LINKS: readonly { to: string; label: string; icon: UiIconName }[] = [
  { to: '/', label: 'Home', icon: 'home' },
  { to: '/tools', label: 'Tools', icon: 'tools' },
  { to: '/about', label: 'About', icon: 'info' },
  { to: '/contact', label: 'Contact', icon: 'mail' },
];

/**
 * External links of the footer. Deployers point them at their own accounts at build time; the
 * Blog link appears only when VITE_BLOG_URL is set, because Folio has no blog of its own.
 */
export const SOCIAL_LINKS: readonly { href: string; label: 'Twitter' | 'Instagram' | 'Facebook'; icon: UiIconName }[] =
  [
    { href: import.meta.env.VITE_TWITTER_URL || 'https://twitter.com/', label: 'Twitter', icon: 'twitter' },
    { href: import.meta.env.VITE_INSTAGRAM_URL || 'https://www.instagram.com/', label: 'Instagram', icon: 'instagram' },
    { href: import.meta.env.VITE_FACEBOOK_URL || 'https://www.facebook.com/', label: 'Facebook', icon: 'facebook' },
  ];

export const BLOG_URL: string | undefined = import.meta.env.VITE_BLOG_URL || undefined;

/** Where people write when the contact form cannot send. */
export const SUPPORT_EMAIL: string = import.meta.env.VITE_SUPPORT_EMAIL || 'support@folio.app';
