/** Wording that only a JavaScript engine or a library would write: never to be shown to people. */
export const INTERNAL_WORDING =
  /Cannot read properties|Maximum call stack|memory access out of bounds|\bundefined\b|\bnull\b|is not a function|is not iterable|Processing failed|RangeError|TypeError|skia/i;
