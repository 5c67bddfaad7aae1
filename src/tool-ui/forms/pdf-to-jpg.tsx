/**
 * pdf-to-jpg's options: the generic fields, minus those that do not apply to the chosen mode
 * (extracting embedded images ignores resolution, format and quality), and a line saying what
 * the download will be.
 */
import type { FileToolPanelProps } from './registry.ts';
import { OptionFields } from '../option-fields.tsx';

export default function PdfToJpgPanel({ tool, values, setValue, disabled }: FileToolPanelProps) {
  const extracting = values.mode === 'images';
  const custom = values.resolution === 'custom';
  const jpeg = values.format !== 'png';
  const only = extracting
    ? ['mode', 'pages']
    : ['mode', 'resolution', ...(custom ? ['dpi'] : []), 'format', ...(jpeg ? ['quality'] : []), 'pages'];
  const extension = jpeg ? 'jpg' : 'png';
  const encoderHelp =
    values.format === 'jpeg-smallest'
      ? ' MozJPEG makes files about 14 % smaller than plain JPEG and takes several times longer.'
      : '';
  return (
    <div className="option-fields">
      <OptionFields tool={tool} values={values} setValue={setValue} disabled={disabled} only={only} />
      <p className="option-help">
        {extracting
          ? 'JPEG images are saved exactly as stored in the PDF; other images are saved as lossless PNG. Several ' +
            'images come as converted.zip.'
          : `One page gives one .${extension} file; several pages come as one ZIP (name-p001.${extension}, ` +
            `name-p002.${extension}, …).${encoderHelp}`}
      </p>
    </div>
  );
}
