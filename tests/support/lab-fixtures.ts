/**
 * PDFs with CIE Lab images (`/ColorSpace [/Lab <<…>>]`), written with pdf-lib's low-level objects:
 * pdf-lib cannot embed one.
 */
import { PDFDocument, PDFName } from 'pdf-lib';
import { encodeJpeg, makeImageData } from '../../workers/engine/lib/image/codecs.ts';

export const D65 = [0.9505, 1, 1.089];

/**
 * A page drawing a 1200 × 800 Lab image 300 × 200 pt (288 dpi): smooth L*, a*, b* waves with noise
 * in L*. Stored as Flate (D50 white, a*, b* over −128…127) or as a JPEG of the samples (D65, the
 * default range).
 */
export async function addLabPage(doc: PDFDocument, storage: 'flate' | 'jpeg'): Promise<void> {
  const [width, height] = [1200, 800];
  const samples = new Uint8Array(width * height * 3);
  let seed = 5;
  const noise = () => ((seed = (seed * 16807) % 2147483647) % 30) - 15;
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += 3) {
      samples[o] = Math.max(0, Math.min(255, 128 + 100 * Math.sin(x / 37) + noise()));
      samples[o + 1] = 128 + 60 * Math.cos(y / 23);
      samples[o + 2] = 128 + 60 * Math.sin((x + y) / 50);
    }
  }
  const labDict =
    storage === 'flate' ? { WhitePoint: [0.9642, 1, 0.8249], Range: [-128, 127, -128, 127] } : { WhitePoint: D65 };
  const dict = {
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    ColorSpace: doc.context.obj(['Lab', labDict]),
    BitsPerComponent: 8,
  };
  let stream;
  if (storage === 'flate') stream = doc.context.flateStream(samples, dict);
  else {
    const rgba = new Uint8ClampedArray(width * height * 4).fill(255);
    for (let i = 0; i < width * height; i++) rgba.set(samples.subarray(i * 3, i * 3 + 3), i * 4);
    const jpeg = await encodeJpeg(makeImageData(rgba, width, height), { quality: 95 });
    stream = doc.context.stream(jpeg, { ...dict, Filter: 'DCTDecode' });
  }
  const page = doc.addPage([300, 200]);
  page.node.set(PDFName.of('Resources'), doc.context.obj({ XObject: { Im: doc.context.register(stream) } }));
  page.node.addContentStream(doc.context.register(doc.context.stream('q 300 0 0 200 0 0 cm /Im Do Q')));
}
