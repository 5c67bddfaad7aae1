/**
 * Month and weekday names in a number format's language. A locale tag — `[$-407]`, `[$€-40C]`,
 * `[$-010409]`, the Windows language id (LCID) in its last four hex digits — makes Excel print
 * `mmmm` as "März" for German and "marca" for Polish, where SheetJS's SSF prints English names. The
 * names come from the platform's Intl (CLDR) data, in the form a date takes them (Polish "5 marca
 * 2024", "marzec 2024" without a day), as LibreOffice prints them.
 */
import SSF from 'ssf';

/** Windows language ids of the languages Excel users write in most, to BCP 47 tags. */
const LOCALES: Record<number, string> = {
  0x0401: 'ar-SA',
  0x0402: 'bg-BG',
  0x0403: 'ca-ES',
  0x0404: 'zh-TW',
  0x0405: 'cs-CZ',
  0x0406: 'da-DK',
  0x0407: 'de-DE',
  0x0408: 'el-GR',
  0x040a: 'es-ES',
  0x040b: 'fi-FI',
  0x040c: 'fr-FR',
  0x040d: 'he-IL',
  0x040e: 'hu-HU',
  0x040f: 'is-IS',
  0x0410: 'it-IT',
  0x0411: 'ja-JP',
  0x0412: 'ko-KR',
  0x0413: 'nl-NL',
  0x0414: 'nb-NO',
  0x0415: 'pl-PL',
  0x0416: 'pt-BR',
  0x0418: 'ro-RO',
  0x0419: 'ru-RU',
  0x041a: 'hr-HR',
  0x041b: 'sk-SK',
  0x041d: 'sv-SE',
  0x041e: 'th-TH',
  0x041f: 'tr-TR',
  0x0421: 'id-ID',
  0x0422: 'uk-UA',
  0x0424: 'sl-SI',
  0x0425: 'et-EE',
  0x0426: 'lv-LV',
  0x0427: 'lt-LT',
  0x0429: 'fa-IR',
  0x042a: 'vi-VN',
  0x042d: 'eu-ES',
  0x0439: 'hi-IN',
  0x043e: 'ms-MY',
  0x0456: 'gl-ES',
  0x0804: 'zh-CN',
  0x0807: 'de-CH',
  0x080a: 'es-MX',
  0x080c: 'fr-BE',
  0x0810: 'it-CH',
  0x0813: 'nl-BE',
  0x0814: 'nn-NO',
  0x0816: 'pt-PT',
  0x0c04: 'zh-HK',
  0x0c07: 'de-AT',
  0x0c0a: 'es-ES',
  0x0c0c: 'fr-CA',
  0x100c: 'fr-CH',
};

const TAG = /\[\$[^\]-]*-([0-9A-Fa-f]+)\]/;

/**
 * Calls `visit` with the index of each character of a format outside quotes, brackets and backslash
 * escapes (the codes); `visit` may return the index to go on after.
 */
function eachCode(format: string, visit: (at: number) => number | void): void {
  let [quoted, bracketed] = [false, false];
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === '\\' && !quoted) i++;
    else if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '[') bracketed = true;
    else if (ch === ']') bracketed = false;
    else if (!quoted && !bracketed) i = visit(i) ?? i;
  }
}

/** The sections of a format (positive;negative;zero;text). */
function sections(format: string): string[] {
  const parts: string[] = [];
  let start = 0;
  eachCode(format, (at) => {
    if (format[at] !== ';') return;
    parts.push(format.slice(start, at));
    start = at + 1;
  });
  parts.push(format.slice(start));
  return parts;
}

/** The runs of one code letter in a section (mmmm, dd…), each with where it starts. */
function codeRuns(section: string): Array<{ at: number; letter: string; length: number }> {
  const runs: Array<{ at: number; letter: string; length: number }> = [];
  eachCode(section, (at) => {
    const letter = section[at].toLowerCase();
    if (!/[a-z]/.test(letter)) return;
    let end = at + 1;
    while (end < section.length && section[end].toLowerCase() === letter) end++;
    runs.push({ at, letter, length: end - at });
    return end - 1;
  });
  return runs;
}

/** Formatters by locale and options: a sheet formats thousands of dates, and making one costs more than using it. */
const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * A name as the locale gives it: a long month as part of a date with its day (genitive where the
 * language has one: Polish "marca") or alone ("marzec"); short months and weekdays stand alone.
 */
function dateName(locale: string, date: Date, options: Intl.DateTimeFormatOptions, withDay: boolean): string {
  const all = { ...options, ...(withDay ? { day: 'numeric' as const } : {}), timeZone: 'UTC' };
  const key = `${locale} ${JSON.stringify(all)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, all)));
  const part = options.month ? 'month' : 'weekday';
  return format.formatToParts(date).find((p) => p.type === part)?.value ?? '';
}

/**
 * The format with each `mmm…` and `ddd…` of a section tagged with a non-English language replaced by
 * that language's name for `serial`'s month or weekday, as a quoted literal; other formats as they are.
 */
export function withLocaleNames(format: string, serial: number): string {
  if (!format.includes('[$')) return format;
  return sections(format)
    .map((section) => {
      const hex = TAG.exec(section)?.[1];
      const locale = hex ? LOCALES[parseInt(hex, 16) & 0xffff] : undefined;
      const parsed = locale ? SSF.parse_date_code(serial) : undefined;
      if (!locale || !parsed) return section;
      const date = new Date(Date.UTC(parsed.y, parsed.m - 1, parsed.d));
      const runs = codeRuns(section);
      const withDay = runs.some((run) => run.letter === 'd' && run.length <= 2);
      let out = section;
      for (const run of runs.reverse()) {
        let name: string | undefined;
        if (run.letter === 'm' && run.length >= 5)
          name = dateName(locale, date, { month: 'long' }, false).slice(0, 1).toUpperCase();
        else if (run.letter === 'm' && run.length === 3) name = dateName(locale, date, { month: 'short' }, false);
        else if (run.letter === 'm' && run.length >= 4) name = dateName(locale, date, { month: 'long' }, withDay);
        else if (run.letter === 'd' && run.length >= 3)
          name = dateName(locale, date, { weekday: run.length === 3 ? 'short' : 'long' }, false);
        if (name !== undefined) out = `${out.slice(0, run.at)}"${name}"${out.slice(run.at + run.length)}`;
      }
      // The tag has done its work; left in, SSF takes a section without date codes for a currency ("$M").
      return out === section ? section : out.replace(TAG, (tag) => `"${/^\[\$([^\]-]*)-/.exec(tag)![1]}"`);
    })
    .join(';');
}
