/// <reference types="vite/client" />

/** Build-time settings of the app frame and the contact form (all optional). */
interface ImportMetaEnv {
  readonly VITE_EMAILJS_SERVICE_ID?: string;
  readonly VITE_EMAILJS_TEMPLATE_ID?: string;
  readonly VITE_EMAILJS_PUBLIC_KEY?: string;
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_BLOG_URL?: string;
  readonly VITE_TWITTER_URL?: string;
  readonly VITE_INSTAGRAM_URL?: string;
  readonly VITE_FACEBOOK_URL?: string;
}
