/**
 * JSON validation and formatting that never changes the data.
 *
 * JSON.parse + JSON.stringify would round big integers (12345678901234567890 → …000) and rewrite
 * escapes, and browsers report syntax errors differently (Safari gives no position at all). So this
 * module has its own small parser: it keeps every number, string and literal exactly as written
 * (only whitespace and, on request, key order change) and reports the first error with its line
 * and column. Parsing and printing use explicit stacks, so deep nesting cannot overflow the call
 * stack. It runs on the main thread for small inputs and in src/utilities/json.worker.ts for big
 * ones (a 20 MB document formats without freezing the tab).
 */

/** A primitive is kept as its raw source text: '"a\\n"', '1.50', 'true', 'null'. */
export type JsonNode = string | JsonObject | JsonArray;
export interface JsonObject {
  kind: 'object';
  /** Raw key tokens, quotes included. */
  keys: string[];
  values: JsonNode[];
}
export interface JsonArray {
  kind: 'array';
  items: JsonNode[];
}

export type JsonIndent = '2' | '4' | 'tab';

export interface JsonFormatOptions {
  indent: JsonIndent;
  minify: boolean;
  sortKeys: boolean;
}

export const DEFAULT_JSON_OPTIONS: JsonFormatOptions = { indent: '2', minify: false, sortKeys: false };

export interface JsonErrorInfo {
  /** The message the user reads. */
  message: 'Invalid JSON format';
  /** What is wrong, in words. */
  reason: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters from the start of the line. */
  column: number;
  offset: number;
  /** The offending line (cut to ~80 characters around the error) and where the caret goes in it. */
  excerpt: string;
  caret: number;
}

export interface JsonStats {
  /** Number of values (objects, arrays and primitives). */
  values: number;
  /** Deepest nesting of objects/arrays (0 for a bare primitive). */
  depth: number;
}

export type JsonFormatResult =
  /** `bytes` (UTF-8 size of output) is filled in by the worker, which has time to spare for it. */
  | { ok: true; output: string; stats: JsonStats; bytes?: number }
  | { ok: false; error: JsonErrorInfo }
  | { ok: false; empty: true; error: null };

export const INPUT_REQUIRED = 'Input required';

class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(reason);
  }
}

// Character codes, as plain constants so the hot loops compare small integers.
const TAB = 9;
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const QUOTE = 34;
const PLUS = 43;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const SLASH = 47;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const UPPER_E = 69;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const CLOSE_BRACKET = 93;
const LOWER_E = 101;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** A run of string characters that need no attention (no quote, backslash or control character). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it must stop at
const STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function describe(text: string, at: number): string {
  if (at >= text.length) return 'end of input';
  const code = text.codePointAt(at) ?? 0;
  const char = String.fromCodePoint(code);
  return code < 32 ? `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${char}'`;
}

interface Frame {
  node: JsonObject | JsonArray;
  /** Key waiting for its value (objects). */
  key: string;
}

/** Parses JSON text into raw-preserving nodes; throws JsonSyntaxError at the first problem. */
export function parseJson(text: string): { root: JsonNode; stats: JsonStats } {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte-order mark is not part of the JSON
  const stack: Frame[] = [];
  let values = 0;
  let depth = 0;

  const skipWhitespace = () => {
    if (text.charCodeAt(i) > SPACE) return;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === LINE_FEED || c === CARRIAGE_RETURN || c === TAB) i++;
      else return;
    }
  };

  const unexpected = (context: string): never => {
    const c = text.charCodeAt(i);
    if (i >= n) throw new JsonSyntaxError(`Unexpected end of input: ${context}`, i);
    if (c === SLASH) throw new JsonSyntaxError('Comments are not allowed in JSON', i);
    if (c === 39 /* ' */) throw new JsonSyntaxError('Strings must use double quotes, not single quotes', i);
    throw new JsonSyntaxError(`Unexpected ${describe(text, i)}: ${context}`, i);
  };

  const readString = (): string => {
    const start = i;
    i++; // opening quote
    for (;;) {
      // Skip ordinary characters natively (a sticky regex), then look at what stopped it.
      STRING_RUN.lastIndex = i;
      STRING_RUN.test(text);
      i = STRING_RUN.lastIndex;
      if (i >= n) throw new JsonSyntaxError('Unterminated string: a closing double quote is missing', start);
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i++;
        return text.slice(start, i);
      }
      if (c === BACKSLASH) {
        const e = text.charCodeAt(i + 1);
        if (e === 117 /* u */) {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            throw new JsonSyntaxError('Invalid \\u escape: four hex digits are needed', i);
          i += 6;
        } else if (
          e === QUOTE ||
          e === BACKSLASH ||
          e === SLASH ||
          e === 98 ||
          e === 102 ||
          e === 110 ||
          e === 114 ||
          e === 116
        ) {
          i += 2;
        } else {
          throw new JsonSyntaxError(`Invalid escape ${describe(text, i + 1)} in string`, i);
        }
      } else if (c < 32) {
        throw new JsonSyntaxError(
          c === LINE_FEED
            ? 'Unterminated string: line breaks inside strings must be written \\n'
            : `Unescaped ${describe(text, i)} in string`,
          i,
        );
      } else {
        i++;
      }
    }
  };

  const readDigits = (): number => {
    const start = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < ZERO || c > NINE) break;
      i++;
    }
    return i - start;
  };

  const readNumber = (): string => {
    const start = i;
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) {
      const after = text.charCodeAt(NUMBER.lastIndex);
      // Fast path, unless what follows would make it a malformed number ("01", "1.", "1e"): the
      // careful reader below then says exactly what is wrong.
      if (!((after >= ZERO && after <= NINE) || after === DOT || after === LOWER_E || after === UPPER_E)) {
        i = NUMBER.lastIndex;
        return text.slice(start, i);
      }
    }
    if (text.charCodeAt(i) === MINUS) i++;
    const first = text.charCodeAt(i);
    if (first === ZERO) {
      i++;
      const next = text.charCodeAt(i);
      if (next >= ZERO && next <= NINE) throw new JsonSyntaxError('Numbers cannot have leading zeros', start);
    } else if (readDigits() === 0) {
      throw new JsonSyntaxError('Invalid number: a digit is expected', i);
    }
    if (text.charCodeAt(i) === DOT) {
      i++;
      if (readDigits() === 0)
        throw new JsonSyntaxError('Invalid number: digits are expected after the decimal point', i);
    }
    const e = text.charCodeAt(i);
    if (e === LOWER_E || e === UPPER_E) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      if (readDigits() === 0) throw new JsonSyntaxError('Invalid number: digits are expected in the exponent', i);
    }
    return text.slice(start, i);
  };

  const readKey = (frame: Frame) => {
    skipWhitespace();
    if (text.charCodeAt(i) !== QUOTE) {
      if (text.charCodeAt(i) === CLOSE_BRACE) throw new JsonSyntaxError('Trailing comma before } is not allowed', i);
      unexpected('expected a property name in double quotes');
    }
    frame.key = readString();
    skipWhitespace();
    if (text.charCodeAt(i) !== COLON) unexpected("expected ':' after the property name");
    i++;
  };

  let root: JsonNode | undefined;
  parsing: for (;;) {
    // Read one value; containers open a frame and go round again for their first member.
    skipWhitespace();
    const c = text.charCodeAt(i);
    let value: JsonNode;
    if (c === OPEN_BRACE) {
      i++;
      values++;
      const node: JsonObject = { kind: 'object', keys: [], values: [] };
      skipWhitespace();
      if (text.charCodeAt(i) === CLOSE_BRACE) {
        i++;
        if (stack.length + 1 > depth) depth = stack.length + 1;
        value = node;
      } else {
        const frame: Frame = { node, key: '' };
        stack.push(frame);
        if (stack.length > depth) depth = stack.length;
        readKey(frame);
        continue;
      }
    } else if (c === OPEN_BRACKET) {
      i++;
      values++;
      const node: JsonArray = { kind: 'array', items: [] };
      skipWhitespace();
      if (text.charCodeAt(i) === CLOSE_BRACKET) {
        i++;
        if (stack.length + 1 > depth) depth = stack.length + 1;
        value = node;
      } else {
        stack.push({ node, key: '' });
        if (stack.length > depth) depth = stack.length;
        continue;
      }
    } else {
      values++;
      if (c === QUOTE) value = readString();
      else if (c === MINUS || (c >= ZERO && c <= NINE)) value = readNumber();
      else if (text.startsWith('true', i) || text.startsWith('null', i)) {
        value = text.slice(i, i + 4);
        i += 4;
      } else if (text.startsWith('false', i)) {
        value = 'false';
        i += 5;
      } else if (c === CLOSE_BRACKET && stack.length > 0)
        throw new JsonSyntaxError('Trailing comma before ] is not allowed', i);
      else value = unexpected('expected a value (object, array, string, number, true, false or null)');
    }

    // Hand the finished value to its container; close containers as long as they end here.
    for (;;) {
      const frame = stack[stack.length - 1];
      if (!frame) {
        root = value;
        break parsing;
      }
      if (frame.node.kind === 'object') {
        frame.node.keys.push(frame.key);
        frame.node.values.push(value);
      } else {
        frame.node.items.push(value);
      }
      skipWhitespace();
      const next = text.charCodeAt(i);
      if (next === COMMA) {
        i++;
        if (frame.node.kind === 'object') readKey(frame);
        continue parsing;
      }
      if (frame.node.kind === 'object' ? next === CLOSE_BRACE : next === CLOSE_BRACKET) {
        i++;
        stack.pop();
        value = frame.node;
        continue;
      }
      unexpected(
        frame.node.kind === 'object'
          ? "expected ',' or '}' after a property value"
          : "expected ',' or ']' after an array element",
      );
    }
  }
  skipWhitespace();
  if (i < n) unexpected('only one value is allowed (is a comma or bracket missing?)');
  return { root, stats: { values, depth } };
}

/** Line, column and a short excerpt for an offset into the text. */
export function locate(text: string, offset: number): Pick<JsonErrorInfo, 'line' | 'column' | 'excerpt' | 'caret'> {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  let lineEnd = text.indexOf('\n', lineStart);
  if (lineEnd === -1) lineEnd = text.length;
  const column = offset - lineStart + 1;
  const from = Math.max(lineStart, offset - 40);
  const to = Math.min(lineEnd, from + 80);
  return { line, column, excerpt: text.slice(from, to).replace(/\r$/, '').replace(/\t/g, ' '), caret: offset - from };
}

function decodeKey(raw: string): string {
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

function sortedOrder(node: JsonObject): number[] {
  const decoded = node.keys.map(decodeKey);
  // Code-unit order, like most tools' "sort keys"; the sort is stable for duplicate keys.
  return decoded
    .map((_, index) => index)
    .sort((a, b) => (decoded[a] < decoded[b] ? -1 : decoded[a] > decoded[b] ? 1 : 0));
}

/** Collects output in chunks so millions of small pieces never sit in one giant array. */
class Output {
  private pieces: string[] = [];
  private chunks: string[] = [];
  push(piece: string) {
    this.pieces.push(piece);
    if (this.pieces.length >= 65_536) {
      this.chunks.push(this.pieces.join(''));
      this.pieces = [];
    }
  }
  toString(): string {
    this.chunks.push(this.pieces.join(''));
    return this.chunks.join('');
  }
}

export function printJson(root: JsonNode, options: JsonFormatOptions): string {
  const unit = options.minify ? '' : options.indent === 'tab' ? '\t' : ' '.repeat(Number(options.indent));
  const newline = options.minify ? '' : '\n';
  const colon = options.minify ? ':' : ': ';
  const indents = [''];
  const indent = (depth: number) => {
    while (indents.length <= depth) indents.push(indents[indents.length - 1] + unit);
    return indents[depth];
  };
  const out = new Output();
  interface PrintFrame {
    node: JsonObject | JsonArray;
    next: number;
    order: number[] | null;
  }
  const stack: PrintFrame[] = [];

  const open = (node: JsonNode) => {
    if (typeof node === 'string') out.push(node);
    else if (node.kind === 'object' ? node.keys.length === 0 : node.items.length === 0)
      out.push(node.kind === 'object' ? '{}' : '[]');
    else {
      out.push(node.kind === 'object' ? '{' : '[');
      stack.push({ node, next: 0, order: node.kind === 'object' && options.sortKeys ? sortedOrder(node) : null });
    }
  };

  open(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const { node } = frame;
    const size = node.kind === 'object' ? node.keys.length : node.items.length;
    if (frame.next === size) {
      stack.pop();
      out.push(newline + indent(stack.length) + (node.kind === 'object' ? '}' : ']'));
      continue;
    }
    if (frame.next > 0) out.push(',');
    out.push(newline + indent(stack.length));
    const index = frame.order ? frame.order[frame.next] : frame.next;
    frame.next++;
    if (node.kind === 'object') {
      out.push(node.keys[index] + colon);
      open(node.values[index]);
    } else {
      open(node.items[index]);
    }
  }
  return out.toString();
}

/** Validates and formats; the error carries 'Invalid JSON format' plus the reason, line and column. */
export function formatJson(text: string, options: JsonFormatOptions = DEFAULT_JSON_OPTIONS): JsonFormatResult {
  if (text.trim() === '') return { ok: false, empty: true, error: null };
  try {
    const { root, stats } = parseJson(text);
    return { ok: true, output: printJson(root, options), stats };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return {
      ok: false,
      error: {
        message: 'Invalid JSON format',
        reason: error.reason,
        offset: error.offset,
        ...locate(text, error.offset),
      },
    };
  }
}

/** "Invalid JSON format at line 3, column 5: Unexpected '}' …" */
export function describeJsonError(error: JsonErrorInfo): string {
  return `${error.message} at line ${error.line}, column ${error.column}: ${error.reason}`;
}
