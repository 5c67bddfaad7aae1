/** Small helpers over @xmldom/xmldom (DOMParser is not available in Web Workers). */
import { DOMParser } from '@xmldom/xmldom';
import type { ImageMime } from './images.ts';
import type JSZip from 'jszip';

export type XmlElement = import('@xmldom/xmldom').Element;

export function parseXml(text: string): XmlElement {
  // A byte-order mark (or blank line) before the XML declaration is common and harmless, but
  // xmldom rejects a declaration that is not at the very start.
  const start = text.indexOf('<');
  if (start > 0 && /^[\uFEFF\s]+$/.test(text.slice(0, start))) text = text.slice(start);
  const doc = new DOMParser({ onError: () => {} }).parseFromString(text, 'text/xml');
  const root = doc.documentElement;
  if (!root) throw new Error('Malformed XML');
  return root;
}

/** Direct child elements, optionally only those with this qualified name (e.g. 'w:p'). */
export function kids(element: XmlElement | null | undefined, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  if (!element) return out;
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (!name || node.nodeName === name)) out.push(node as XmlElement);
  }
  return out;
}

export function kid(element: XmlElement | null | undefined, name: string): XmlElement | undefined {
  return kids(element, name)[0];
}

/** The first descendant with this qualified name. */
export function find(element: XmlElement | null | undefined, name: string): XmlElement | undefined {
  if (!element) return undefined;
  const found = element.getElementsByTagName(name);
  return found.length ? (found[0] as XmlElement) : undefined;
}

export function findAll(element: XmlElement | null | undefined, name: string): XmlElement[] {
  if (!element) return [];
  return Array.from(element.getElementsByTagName(name)) as XmlElement[];
}

export function attr(element: XmlElement | null | undefined, name: string): string | undefined {
  if (!element) return undefined;
  const value = element.getAttribute(name);
  return value === null || value === '' ? undefined : value;
}

export function num(element: XmlElement | null | undefined, name: string): number | undefined {
  const value = attr(element, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

const UNIT: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, pc: 12, pi: 12, px: 0.75 };

/**
 * A length with its unit, in points ('2.54cm' → 72; a bare number is points); undefined for a
 * relative (%) or malformed one.
 */
export function length(value: string | undefined): number | undefined {
  const match = value ? /^\s*(-?[\d.]+(?:e-?\d+)?)\s*(pt|in|cm|mm|pc|pi|px)?\s*$/i.exec(value) : null;
  if (!match) return undefined;
  const n = Number(match[1]) * UNIT[(match[2] ?? 'pt').toLowerCase()];
  return Number.isFinite(n) ? n : undefined;
}

/**
 * An OOXML measure in points: a bare number in the attribute's own unit (`pointsPerUnit`: ½ for
 * half-points, 1/20 for twips), or a universal measure with its unit ("6pt", "-0.5mm", "1in").
 */
export function measure(
  element: XmlElement | null | undefined,
  name: string,
  pointsPerUnit: number,
): number | undefined {
  const value = attr(element, name)?.trim();
  if (value === undefined) return undefined;
  if (/[a-z]$/i.test(value)) return length(value);
  const points = Number(value) * pointsPerUnit;
  return Number.isFinite(points) ? points : undefined;
}

export async function zipText(zip: JSZip, path: string): Promise<string | undefined> {
  const file = zip.file(path);
  return file ? file.async('string') : undefined;
}

/** Relationship id → target path (resolved against the part's folder). */
export async function readRels(
  zip: JSZip,
  partPath: string,
): Promise<Map<string, { target: string; type: string; external: boolean }>> {
  const slash = partPath.lastIndexOf('/');
  const folder = partPath.slice(0, slash + 1);
  const relsPath = `${folder}_rels/${partPath.slice(slash + 1)}.rels`;
  const map = new Map<string, { target: string; type: string; external: boolean }>();
  const text = await zipText(zip, relsPath);
  if (!text) return map;
  for (const rel of kids(parseXml(text), 'Relationship')) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (!id || !target) continue;
    const external = attr(rel, 'TargetMode') === 'External';
    map.set(id, {
      target: external || target.startsWith('/') ? target.replace(/^\//, '') : normalisePath(folder + target),
      type: attr(rel, 'Type') ?? '',
      external,
    });
  }
  return map;
}

function normalisePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** 'FF0000' → [1, 0, 0]; undefined for 'auto' or malformed values. */
export function hexColor(value: string | undefined): [number, number, number] | undefined {
  if (!value || !/^[0-9a-f]{6}$/i.test(value)) return undefined;
  return [
    parseInt(value.slice(0, 2), 16) / 255,
    parseInt(value.slice(2, 4), 16) / 255,
    parseInt(value.slice(4, 6), 16) / 255,
  ];
}

/** A picture's type from its file name, for pictures pdf-lib embeds directly or after conversion (images.ts). */
export function imageMime(path: string): ImageMime | undefined {
  const extension = path.toLowerCase().replace(/^.*\./, '');
  return (
    {
      png: 'image/png',
      jpg: 'image/jpeg',
      jpeg: 'image/jpeg',
      jpe: 'image/jpeg',
      gif: 'image/gif',
      bmp: 'image/bmp',
      dib: 'image/bmp',
      tif: 'image/tiff',
      tiff: 'image/tiff',
      webp: 'image/webp',
      emf: 'image/x-emf',
      wmf: 'image/x-wmf',
    } as Record<string, ImageMime>
  )[extension];
}
