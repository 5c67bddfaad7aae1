/**
 * Stream filters and predictors (ISO 32000-1 §7.4) as a stream dictionary names them: its filter
 * names and its /DecodeParms. The decoding itself (Flate, the PNG row predictors) is in
 * stream-decode.ts, which needs no pdf-lib, so the image worker can use it without bundling pdf-lib.
 * pdf-lib's `decodePDFRawStream` does the other filters but ignores /DecodeParms, so predicted data
 * goes through `unpredict` (stream-decode.ts).
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFObject } from 'pdf-lib';
import type { PredictorParams } from './stream-decode.ts';

/** The filter names of a stream dictionary, in decoding order ([] when it has none). */
export function filterNames(dict: PDFDict): string[] {
  const filter = dict.lookup(PDFName.of('Filter'));
  if (filter instanceof PDFName) return [filter.decodeText()];
  if (filter instanceof PDFArray) {
    return filter.asArray().map((f) => {
      const name = dict.context.lookup(f);
      return name instanceof PDFName ? name.decodeText() : '';
    });
  }
  return [];
}

/** Reads a stream's /DecodeParms (a dictionary, or null) into predictor parameters. */
export function predictorParams(
  parms: PDFObject | undefined,
  defaults: Partial<PredictorParams> = {},
): PredictorParams {
  const read = (key: string, fallback: number) => {
    const value = parms instanceof PDFDict ? parms.lookup(PDFName.of(key)) : undefined;
    return value instanceof PDFNumber ? value.asNumber() : fallback;
  };
  return {
    predictor: read('Predictor', defaults.predictor ?? 1),
    colors: read('Colors', defaults.colors ?? 1),
    bitsPerComponent: read('BitsPerComponent', defaults.bitsPerComponent ?? 8),
    columns: read('Columns', defaults.columns ?? 1),
  };
}
