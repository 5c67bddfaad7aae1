/**
 * add-watermark's options and a live preview of page 1. The page is rendered by pdf.js (in this
 * lazily loaded chunk; pdf.js parses in its own worker) and the watermark is drawn over it on a
 * canvas with the engine's own placement code (watermark-layout.ts), so what you see is where the
 * engine puts it. The preview draws with the browser's fonts; the PDF gets the embedded Noto font.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { FileToolPanelProps } from './registry.ts';
import type { OptionValues } from '../../catalogue/types.ts';
import { OptionFields } from '../option-fields.tsx';
import { POSITIONS, fitFactor, placements, type Position } from '../../../shared/watermark-layout.ts';
import './add-watermark.css';

/** Noto Sans' line box (ascender + descender) per em, as the engine centres it. */
const LINE_BOX_EM = 1.362;
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

interface PagePicture {
  canvas: HTMLCanvasElement;
  /** The page as seen (rotation applied), in points. */
  width: number;
  height: number;
}

type PreviewState =
  { kind: 'none' } | { kind: 'loading' } | { kind: 'ready'; page: PagePicture } | { kind: 'error'; message: string };

async function renderFirstPage(file: File): Promise<PagePicture> {
  const { openPdfjs, renderPage } = await import('../../../workers/pdf-view.ts');
  const doc = await openPdfjs(new Uint8Array(await file.arrayBuffer()), { name: file.name });
  try {
    const page = await doc.getPage(1);
    const { width, height } = page.getViewport({ scale: 1 });
    // About 640 px across: sharp on a phone at 2× and cheap to redraw.
    const dpi = Math.min(150, (72 * 640) / Math.max(width, height * 0.75));
    const pixels = await renderPage(doc, 1, dpi);
    const canvas = document.createElement('canvas');
    canvas.width = pixels.width;
    canvas.height = pixels.height;
    canvas
      .getContext('2d')!
      .putImageData(new ImageData(pixels.data as Uint8ClampedArray<ArrayBuffer>, pixels.width, pixels.height), 0, 0);
    return { canvas, width, height };
  } finally {
    await doc.destroy();
  }
}

function loadImage(dataUrl: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('not an image'));
    image.src = dataUrl;
  });
}

function drawPreview(
  target: HTMLCanvasElement,
  page: PagePicture,
  values: OptionValues,
  image: HTMLImageElement | undefined,
): void {
  target.width = page.canvas.width;
  target.height = page.canvas.height;
  const ctx = target.getContext('2d')!;
  ctx.drawImage(page.canvas, 0, 0);
  const scale = target.width / page.width;
  const angle = Number(values.rotation ?? 45);
  const position = (POSITIONS as readonly string[]).includes(String(values.position))
    ? (values.position as Position)
    : 'center';
  ctx.globalAlpha = Math.min(1, Math.max(0, Number(values.opacity ?? 30) / 100));
  // Under the content: on white paper the text shows through where the page is blank; multiply is
  // the closest picture of that without separating the page's layers.
  ctx.globalCompositeOperation = values.layer === 'under' ? 'multiply' : 'source-over';
  const at = ([cx, cy]: [number, number], draw: () => void) => {
    ctx.save();
    ctx.translate(cx * scale, (page.height - cy) * scale);
    ctx.rotate((-angle * Math.PI) / 180); // PDF angles turn counter-clockwise; canvas y points down
    draw();
    ctx.restore();
  };
  if (values.type === 'image') {
    if (!image) return;
    const wanted = page.width * Math.min(1, Math.max(0.01, Number(values.imageScale ?? 40) / 100));
    const w =
      wanted * fitFactor(page.width, page.height, wanted, (wanted * image.naturalHeight) / image.naturalWidth, angle);
    const h = (w * image.naturalHeight) / image.naturalWidth;
    for (const centre of placements(position, page.width, page.height, w, h, angle)) {
      at(centre, () => ctx.drawImage(image, (-w / 2) * scale, (-h / 2) * scale, w * scale, h * scale));
    }
    return;
  }
  const text = String(values.text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return;
  const font = (points: number) => `${points * scale}px "Noto Sans", "Noto Sans SC", system-ui, sans-serif`;
  let size = Math.min(400, Math.max(4, Number(values.fontSize ?? 48)));
  ctx.font = font(size);
  size *= fitFactor(page.width, page.height, ctx.measureText(text).width / scale, size * LINE_BOX_EM, angle);
  ctx.font = font(size);
  ctx.fillStyle = String(values.color ?? '#808080');
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const w = ctx.measureText(text).width / scale;
  for (const centre of placements(position, page.width, page.height, w, size * LINE_BOX_EM, angle)) {
    at(centre, () => ctx.fillText(text, 0, 0));
  }
}

export default function AddWatermarkPanel({ tool, files, values, setValue, disabled }: FileToolPanelProps) {
  const file = files[0];
  const [preview, setPreview] = useState<PreviewState>({ kind: 'none' });
  const [image, setImage] = useState<HTMLImageElement>();
  const [imageProblem, setImageProblem] = useState('');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const imageInputId = useId();
  const imageData = String(values.imageData ?? '');

  useEffect(() => {
    if (!file) {
      setPreview({ kind: 'none' });
      return;
    }
    let live = true;
    setPreview({ kind: 'loading' });
    renderFirstPage(file).then(
      (page) => live && setPreview({ kind: 'ready', page }),
      (error: Error) => {
        if (!live) return;
        const message =
          error.name === 'PasswordRequired'
            ? 'No preview: this PDF needs a password (you will be asked for it when you process it).'
            : `No preview: ${error.message}`;
        setPreview({ kind: 'error', message });
      },
    );
    return () => {
      live = false;
    };
  }, [file]);

  useEffect(() => {
    if (!imageData) {
      setImage(undefined);
      return;
    }
    let live = true;
    loadImage(imageData).then(
      (loaded) => live && setImage(loaded),
      () => live && setImage(undefined),
    );
    return () => {
      live = false;
    };
  }, [imageData]);

  useEffect(() => {
    if (preview.kind === 'ready' && canvasRef.current) drawPreview(canvasRef.current, preview.page, values, image);
  }, [preview, values, image]);

  function pickImage(picked: File | undefined) {
    setImageProblem('');
    if (!picked) return;
    if (!/^image\/(jpeg|png)$/.test(picked.type) && !/\.(jpe?g|png)$/i.test(picked.name)) {
      setImageProblem(`"${picked.name}" is not a JPEG or PNG image.`);
      return;
    }
    if (picked.size > MAX_IMAGE_BYTES) {
      setImageProblem(`"${picked.name}" is larger than 20 MB; choose a smaller image.`);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      setValue('imageData', String(reader.result));
      setValue('imageName', picked.name);
    };
    reader.onerror = () => setImageProblem(`"${picked.name}" could not be read.`);
    reader.readAsDataURL(picked);
  }

  const isImage = values.type === 'image';
  return (
    <div className="watermark-panel">
      <figure className="watermark-preview" aria-live="polite">
        {preview.kind === 'ready' && (
          <canvas ref={canvasRef} role="img" aria-label="Preview of page 1 with the watermark" />
        )}
        {preview.kind === 'loading' && <p className="option-help">Rendering page 1…</p>}
        {preview.kind === 'none' && <p className="option-help">Choose a PDF to see page 1 with the watermark.</p>}
        {preview.kind === 'error' && <p className="option-help">{preview.message}</p>}
        <figcaption className="option-help">
          Preview of page 1{isImage && !image ? ' — choose an image to place it' : ''}
        </figcaption>
      </figure>
      <div className="option-fields">
        <OptionFields tool={tool} values={values} setValue={setValue} disabled={disabled} only={['type']} />
        {isImage ? (
          <div className="option-field">
            <label htmlFor={imageInputId}>Watermark image (JPEG or PNG)</label>
            <input
              id={imageInputId}
              type="file"
              accept="image/jpeg,image/png,.jpg,.jpeg,.png"
              disabled={disabled}
              onChange={(e) => pickImage(e.target.files?.[0])}
            />
            {values.imageName ? <small className="option-help">Using {String(values.imageName)}</small> : null}
            {imageProblem && (
              <small className="option-problem" role="alert">
                {imageProblem}
              </small>
            )}
          </div>
        ) : null}
        <OptionFields
          tool={tool}
          values={values}
          setValue={setValue}
          disabled={disabled}
          only={isImage ? ['imageScale'] : ['text', 'fontSize', 'color']}
        />
        <OptionFields
          tool={tool}
          values={values}
          setValue={setValue}
          disabled={disabled}
          only={['opacity', 'rotation', 'position', 'pages', 'layer', 'removeScripts']}
        />
      </div>
    </div>
  );
}
