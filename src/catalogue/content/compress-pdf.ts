import type { ToolContent } from '../types.ts';

/** Detail-page copy of compress-pdf: what the tool does in Folio, on the device (shown on its page, /tools/<id>). */
export const content: ToolContent = {
  overview:
    'Compress PDF makes documents smaller by re-encoding their images at a sensible resolution and quality and ' +
    'by rewriting the file structure more compactly. Choose a level, fine-tune it, or give a target size, and ' +
    'Folio never hands back a file that is bigger than the one you gave it.',
  features: [
    'Light, Recommended and Strong levels, plus custom image quality and resolution',
    'Target-size mode: ask for a file under a size and Folio searches for settings that fit',
    'Images re-encoded with MozJPEG; transparency and colours are preserved',
    'Structural clean-up: object streams, recompressed streams, unused objects removed',
    'Optional grayscale conversion and metadata removal',
    'Shows the size before and after, and keeps the original if nothing can be saved',
  ],
  usage: [
    'Click Upload Files and select a PDF.',
    'Pick a compression level, or choose Custom or Target size.',
    'Click Process Files and watch the progress as pages are processed.',
    'Check the size saved and download the smaller PDF.',
  ],
  perfectFor: [
    'Getting a scanned document under an upload or email limit',
    'Shrinking image-heavy brochures and presentations for sharing',
    'Archiving large reports without wasting storage',
    'Sending PDFs over slow or metered connections',
  ],
  privacy:
    'Compression runs on your own processor in a web worker using WebAssembly. The original and the compressed ' +
    "copy exist only in your browser's memory and your downloads folder; no byte of either is transmitted.",
  whyUse:
    'Online compressors upload your file, then make you download it again. Folio skips both transfers, lets you ' +
    'see exactly how much was saved, and refuses to make a file larger — so the result is always worth keeping.',
};
