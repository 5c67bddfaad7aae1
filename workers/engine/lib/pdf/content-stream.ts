/**
 * A small PDF content-stream tokenizer and writer (ISO 32000-1 §7.2, §7.8.2), enough to walk a
 * page's drawing operators and rewrite some of them: compression measures where images are drawn,
 * redaction drops text-showing operators and image draws without disturbing anything else. Operators that are kept are
 * written back byte for byte from the source, so nothing the tokenizer does not fully model
 * (odd number forms, comments, inline image data) is ever re-serialised.
 */
import { toMatrix, type Matrix } from './matrix.ts';

export type Operand =
  | { kind: 'number'; value: number }
  | { kind: 'string'; bytes: Uint8Array; hex: boolean }
  | { kind: 'name'; value: string }
  | { kind: 'array'; items: Operand[] }
  | { kind: 'dict'; entries: Map<string, Operand> }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' };

export interface Operation {
  operator: string;
  operands: Operand[];
  /** Byte range of the whole operation (operands + operator) in the source. */
  start: number;
  end: number;
  /** For BI … ID … EI: the inline image's dictionary (abbreviated keys as written). */
  inlineImage?: Map<string, Operand>;
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
/** Byte classes as a table (0 regular, 1 whitespace, 2 delimiter): the lexer's inner loops test every byte. */
const CLASS = new Uint8Array(256);
for (const b of WHITESPACE) CLASS[b] = 1;
for (const b of DELIMITERS) CLASS[b] = 2;
const isRegular = (b: number) => CLASS[b] === 0;

type Token =
  | Operand
  | { kind: 'op'; value: string }
  | { kind: 'open-array' }
  | { kind: 'close-array' }
  | { kind: 'open-dict' }
  | { kind: 'close-dict' };

class Lexer {
  pos = 0;
  constructor(readonly src: Uint8Array) {}

  skipSpace(): void {
    const { src } = this;
    while (this.pos < src.length) {
      const b = src[this.pos];
      if (CLASS[b] === 1) this.pos++;
      else if (b === 0x25 /* % */) {
        while (this.pos < src.length && src[this.pos] !== 0x0a && src[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  next(): Token | undefined {
    this.skipSpace();
    const { src } = this;
    if (this.pos >= src.length) return undefined;
    const b = src[this.pos];
    if (b === 0x28 /* ( */) return this.literalString();
    if (b === 0x3c /* < */) {
      if (src[this.pos + 1] === 0x3c) {
        this.pos += 2;
        return { kind: 'open-dict' };
      }
      return this.hexString();
    }
    if (b === 0x3e /* > */) {
      this.pos += src[this.pos + 1] === 0x3e ? 2 : 1;
      return { kind: 'close-dict' };
    }
    if (b === 0x5b) {
      this.pos++;
      return { kind: 'open-array' };
    }
    if (b === 0x5d) {
      this.pos++;
      return { kind: 'close-array' };
    }
    if (b === 0x7b || b === 0x7d || b === 0x29) {
      // Stray delimiters (PostScript calculator braces, unbalanced parens): skip them.
      this.pos++;
      return this.next();
    }
    if (b === 0x2f /* / */) {
      this.pos++;
      const start = this.pos;
      while (this.pos < src.length && isRegular(src[this.pos])) this.pos++;
      const raw = latin1(src.subarray(start, this.pos));
      return {
        kind: 'name',
        value: raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      };
    }
    const start = this.pos;
    while (this.pos < src.length && isRegular(src[this.pos])) this.pos++;
    const word = latin1(src.subarray(start, this.pos));
    const first = src[start];
    // Only a word starting with a digit, sign or point can be a number; operators skip the regexes.
    if ((first >= 0x30 && first <= 0x39) || first === 0x2b || first === 0x2d || first === 0x2e) {
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { kind: 'number', value: Number(word) };
      if (/^[+-]?[\d.]+$/.test(word))
        return { kind: 'number', value: parseFloat(word.replace(/^([+-]?)\.*/, '$10.')) || 0 };
    }
    if (word === 'true' || word === 'false') return { kind: 'bool', value: word === 'true' };
    if (word === 'null') return { kind: 'null' };
    return { kind: 'op', value: word };
  }

  literalString(): Operand {
    const { src } = this;
    this.pos++; // (
    const out: number[] = [];
    let depth = 1;
    while (this.pos < src.length) {
      const b = src[this.pos++];
      if (b === 0x5c /* \ */) {
        const e = src[this.pos++];
        if (e === undefined) break;
        const simple: Record<number, number> = {
          0x6e: 0x0a,
          0x72: 0x0d,
          0x74: 0x09,
          0x62: 0x08,
          0x66: 0x0c,
          0x28: 0x28,
          0x29: 0x29,
          0x5c: 0x5c,
        };
        if (e in simple) out.push(simple[e]);
        else if (e >= 0x30 && e <= 0x37) {
          let value = e - 0x30;
          for (let i = 0; i < 2 && src[this.pos] >= 0x30 && src[this.pos] <= 0x37; i++)
            value = value * 8 + (src[this.pos++] - 0x30);
          out.push(value & 0xff);
        } else if (e === 0x0d) {
          if (src[this.pos] === 0x0a) this.pos++;
        } else if (e !== 0x0a) out.push(e);
      } else if (b === 0x28) {
        depth++;
        out.push(b);
      } else if (b === 0x29) {
        if (--depth === 0) break;
        out.push(b);
      } else out.push(b);
    }
    return { kind: 'string', bytes: Uint8Array.from(out), hex: false };
  }

  hexString(): Operand {
    const { src } = this;
    this.pos++; // <
    const digits: number[] = [];
    while (this.pos < src.length && src[this.pos] !== 0x3e) {
      const v = hexValue(src[this.pos++]);
      if (v >= 0) digits.push(v);
    }
    this.pos++; // >
    if (digits.length % 2) digits.push(0);
    const bytes = new Uint8Array(digits.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = digits[2 * i] * 16 + digits[2 * i + 1];
    return { kind: 'string', bytes, hex: true };
  }
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

export function latin1(bytes: Uint8Array): string {
  let s = '';
  // Operators, numbers and names are a few bytes: a loop beats spreading a subarray into a call.
  if (bytes.length <= 32) {
    for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return s;
  }
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

/** Assembles operands from tokens: arrays and dictionaries nest; returns undefined at an operator. */
function collect(lexer: Lexer, first: Token, stack: Operand[]): string | undefined {
  if (first.kind === 'op') return first.value;
  if (first.kind === 'open-array') {
    const items: Operand[] = [];
    for (let t = lexer.next(); t && t.kind !== 'close-array'; t = lexer.next()) {
      const op = collect(lexer, t, items);
      // an operator inside an array is malformed; keep it harmlessly
      if (op !== undefined) items.push({ kind: 'name', value: op });
    }
    stack.push({ kind: 'array', items });
    return undefined;
  }
  if (first.kind === 'open-dict') {
    const flat: Operand[] = [];
    for (let t = lexer.next(); t && t.kind !== 'close-dict'; t = lexer.next()) collect(lexer, t, flat);
    stack.push({ kind: 'dict', entries: pairs(flat) });
    return undefined;
  }
  if (first.kind === 'close-array' || first.kind === 'close-dict') return undefined;
  stack.push(first);
  return undefined;
}

function pairs(flat: Operand[]): Map<string, Operand> {
  const entries = new Map<string, Operand>();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const key = flat[i];
    if (key.kind === 'name') entries.set(key.value, flat[i + 1]);
  }
  return entries;
}

/** Finds the end of inline image data: "EI" preceded by whitespace and followed by whitespace or the end. */
function findInlineImageEnd(src: Uint8Array, from: number): number {
  for (let i = from; i < src.length - 1; i++) {
    if (
      src[i] === 0x45 &&
      src[i + 1] === 0x49 &&
      (i === from || WHITESPACE.has(src[i - 1])) &&
      (i + 2 >= src.length || WHITESPACE.has(src[i + 2]) || DELIMITERS.has(src[i + 2]))
    ) {
      return i;
    }
  }
  return src.length;
}

/**
 * The operations of a content stream, one at a time, with their operands and source byte ranges.
 * Reading lazily keeps a walk over a huge page (a map with millions of operators) from holding
 * every operation at once.
 */
export function* readOperations(src: Uint8Array): Generator<Operation> {
  const lexer = new Lexer(src);
  let operands: Operand[] = [];
  lexer.skipSpace();
  let start = lexer.pos;
  for (;;) {
    const token = lexer.next();
    if (!token) break;
    const operator = collect(lexer, token, operands);
    if (operator === undefined) continue;
    if (operator === 'BI') {
      const flat: Operand[] = [];
      for (let t = lexer.next(); t && !(t.kind === 'op' && t.value === 'ID'); t = lexer.next()) collect(lexer, t, flat);
      // One whitespace byte follows ID, then the binary data up to EI.
      const dataStart = lexer.pos + 1;
      const ei = findInlineImageEnd(src, dataStart);
      lexer.pos = Math.min(src.length, ei + 2);
      yield { operator: 'BI', operands: [], start, end: lexer.pos, inlineImage: pairs(flat) };
    } else {
      yield { operator, operands, start, end: lexer.pos };
    }
    operands = [];
    lexer.skipSpace();
    start = lexer.pos;
  }
}

/** Splits a content stream into operations with their operands and source byte ranges. */
export function parseContentStream(src: Uint8Array): Operation[] {
  return [...readOperations(src)];
}

/**
 * The matrix operand of `cm` or `Tm`: the last six operands, as viewers take them when a stream
 * has stray extra ones; undefined unless those are six numbers (the operation is then ignored).
 */
export function operandMatrix(operands: Operand[]): Matrix | undefined {
  const six = operands.slice(-6);
  return six.length === 6 ? toMatrix(six.map((o) => (o.kind === 'number' ? o.value : NaN))) : undefined;
}

/** A number operand's value; 0 for anything else (a malformed operand moves nothing). */
export const numberOperand = (operand: Operand | undefined): number => (operand?.kind === 'number' ? operand.value : 0);

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const s = n.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

function escapeName(name: string): string {
  let out = '/';
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    out += c < 0x21 || c > 0x7e || DELIMITERS.has(c) || c === 0x23 ? `#${c.toString(16).padStart(2, '0')}` : ch;
  }
  return out;
}

export function serializeOperand(operand: Operand): string {
  switch (operand.kind) {
    case 'number':
      return formatNumber(operand.value);
    case 'string':
      return `<${Array.from(operand.bytes, (b) => b.toString(16).padStart(2, '0')).join('')}>`;
    case 'name':
      return escapeName(operand.value);
    case 'array':
      return `[${operand.items.map(serializeOperand).join(' ')}]`;
    case 'dict':
      return `<<${[...operand.entries].map(([k, v]) => `${escapeName(k)} ${serializeOperand(v)}`).join(' ')}>>`;
    case 'bool':
      return String(operand.value);
    case 'null':
      return 'null';
  }
}

/** One operation written out fresh (used for operations the caller rewrote). */
export function serializeOperation(operator: string, operands: Operand[]): string {
  return [...operands.map(serializeOperand), operator].join(' ');
}

/**
 * Rebuilds a content stream: each source operation is kept as its original bytes, replaced by the
 * text `replace` returns, or dropped when `replace` returns ''.
 */
export function rewriteContentStream(
  src: Uint8Array,
  operations: Operation[],
  replacements: Map<Operation, string>,
): Uint8Array {
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let total = 0;
  for (const op of operations) {
    const replacement = replacements.get(op);
    const bytes = replacement === undefined ? src.subarray(op.start, op.end) : encoder.encode(replacement);
    if (bytes.length === 0) continue;
    parts.push(bytes, NEWLINE);
    total += bytes.length + 1;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const NEWLINE = Uint8Array.of(0x0a);
