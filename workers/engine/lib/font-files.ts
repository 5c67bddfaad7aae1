/**
 * The Noto font files Folio bundles (OFL, from the @expo-google-fonts packages), each named once:
 * the URL the browser fetches it from (our own origin, never a CDN) and the package path Node reads
 * it from, the pair loadPackageAsset takes. The watermark font (fonts.ts), Edit PDF's fonts
 * (pdf/edit-fonts.ts) and Office → PDF's fallbacks (office-to-pdf/fonts.ts) pick theirs here.
 * Which offline group a file belongs to follows from its name (src/pwa/engine-files.ts).
 */
import notoSansUrl from '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf?url';
import notoSansBoldUrl from '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf?url';
import notoSansItalicUrl from '@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf?url';
import notoSansBoldItalicUrl from '@expo-google-fonts/noto-sans/700Bold_Italic/NotoSans_700Bold_Italic.ttf?url';
import notoSansScUrl from '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf?url';
import notoSansScBoldUrl from '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf?url';
import notoSansKrUrl from '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf?url';
import notoSansKrBoldUrl from '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf?url';
import notoArabicUrl from '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf?url';
import notoArabicBoldUrl from '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf?url';
import notoHebrewUrl from '@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf?url';
import notoHebrewBoldUrl from '@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf?url';
import notoEmojiUrl from '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf?url';
import notoSymbols2Url from '@expo-google-fonts/noto-sans-symbols-2/400Regular/NotoSansSymbols2_400Regular.ttf?url';
import { loadPackageAsset } from './assets.ts';

/** A bundled font file: where a browser fetches it, and its path in node_modules for Node. */
export type FontFile = [url: string, path: string];

export const FONT_FILES = {
  notoSans: [notoSansUrl, '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'],
  notoSansBold: [notoSansBoldUrl, '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'],
  notoSansItalic: [notoSansItalicUrl, '@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf'],
  notoSansBoldItalic: [
    notoSansBoldItalicUrl,
    '@expo-google-fonts/noto-sans/700Bold_Italic/NotoSans_700Bold_Italic.ttf',
  ],
  notoSansSc: [notoSansScUrl, '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'],
  notoSansScBold: [notoSansScBoldUrl, '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'],
  notoSansKr: [notoSansKrUrl, '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'],
  notoSansKrBold: [notoSansKrBoldUrl, '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'],
  notoSansArabic: [notoArabicUrl, '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf'],
  notoSansArabicBold: [notoArabicBoldUrl, '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf'],
  notoSansHebrew: [notoHebrewUrl, '@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf'],
  notoSansHebrewBold: [notoHebrewBoldUrl, '@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf'],
  notoEmoji: [notoEmojiUrl, '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'],
  notoSansSymbols2: [
    notoSymbols2Url,
    '@expo-google-fonts/noto-sans-symbols-2/400Regular/NotoSansSymbols2_400Regular.ttf',
  ],
} satisfies Record<string, FontFile>;

/** A bundled font file's bytes (fetched in a browser, read from node_modules in Node). */
export function loadFontFile([url, path]: FontFile): Promise<Uint8Array> {
  return loadPackageAsset(url, path);
}
