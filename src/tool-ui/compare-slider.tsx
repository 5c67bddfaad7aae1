/**
 * Before/after comparison for the compressors: the two pictures stacked, the "after" one revealed
 * up to a draggable divider (a plain range input, so keyboard and screen readers work), with
 * "side by side" as the other view. Used by forms/compress-pdf.tsx and forms/image-compressor.tsx.
 */
import { useId, useState } from 'react';
import './compare-slider.css';

export interface CompareSliderProps {
  beforeUrl: string;
  afterUrl: string;
  beforeLabel: string;
  afterLabel: string;
  /** Alternative text describing the picture (both sides show the same picture). */
  alt: string;
}

export function CompareSlider({ beforeUrl, afterUrl, beforeLabel, afterLabel, alt }: CompareSliderProps) {
  const [position, setPosition] = useState(50);
  const [sideBySide, setSideBySide] = useState(false);
  const id = useId();
  return (
    <figure className="compare">
      <div className="compare-toolbar">
        <label>
          <input type="checkbox" checked={sideBySide} onChange={(e) => setSideBySide(e.target.checked)} /> Side by side
        </label>
      </div>
      {sideBySide ? (
        <div className="compare-pair">
          <div>
            <img src={beforeUrl} alt={`${alt}, original`} />
            <span className="compare-tag">{beforeLabel}</span>
          </div>
          <div>
            <img src={afterUrl} alt={`${alt}, compressed`} />
            <span className="compare-tag">{afterLabel}</span>
          </div>
        </div>
      ) : (
        <>
          <div className="compare-stack" style={{ ['--split' as string]: `${position}%` }}>
            <img src={beforeUrl} alt={`${alt}, original (left of the divider)`} />
            <img className="compare-after" src={afterUrl} alt={`${alt}, compressed (right of the divider)`} />
            <span className="compare-divider" aria-hidden="true" />
            <span className="compare-tag compare-tag-left">{beforeLabel}</span>
            <span className="compare-tag compare-tag-right">{afterLabel}</span>
          </div>
          <label htmlFor={id} className="visually-hidden">
            Divider position: original on the left, compressed on the right
          </label>
          <input
            id={id}
            className="compare-range"
            type="range"
            min={0}
            max={100}
            value={position}
            onChange={(e) => setPosition(Number(e.target.value))}
          />
        </>
      )}
      <figcaption>
        {beforeLabel} → {afterLabel}
      </figcaption>
    </figure>
  );
}
