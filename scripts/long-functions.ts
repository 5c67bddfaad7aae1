/**
 * Lists functions longer than a limit (150 lines by default), longest first, and exits with 1 when
 * there are any, so a long function shows up in review instead of growing unnoticed.
 *
 *   npx tsx scripts/long-functions.ts [--max N] [file-or-dir …]    (default: workers/engine)
 *
 * A function's length is its source lines, first to last, nested functions included; each nested
 * function is also measured on its own. Arrow functions and methods count as functions and are
 * named after the variable, property or method that holds them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function sourceFiles(path: string): string[] {
  if (statSync(path).isFile()) return /\.tsx?$/.test(path) && !path.endsWith('.d.ts') ? [path] : [];
  return readdirSync(path)
    .filter((entry) => entry !== 'node_modules' && !entry.startsWith('.'))
    .flatMap((entry) => sourceFiles(join(path, entry)));
}

function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return '(anonymous)';
}

function longFunctions(file: string, max: number): LongFunction[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) {
        found.push({ file, line: start + 1, name: nameOf(node as ts.FunctionLikeDeclaration, source), lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(args: string[]): number {
  let max = 150;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--max') max = Number(args[++i]);
    else paths.push(args[i]);
  }
  if (!Number.isInteger(max) || max < 1) {
    console.error('--max needs a positive whole number of lines');
    return 2;
  }
  const files = (paths.length ? paths : ['workers/engine']).flatMap(sourceFiles);
  const found = files.flatMap((file) => longFunctions(file, max)).sort((a, b) => b.lines - a.lines);
  for (const f of found) console.log(`${String(f.lines).padStart(5)}  ${relative('.', f.file)}:${f.line}  ${f.name}`);
  console.log(found.length ? `${found.length} function(s) over ${max} lines.` : `No function over ${max} lines.`);
  return found.length ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
