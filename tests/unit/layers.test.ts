/**
 * The house's shape, held as the code changes: the folders under `src/` stack as layers (no import,
 * type-only ones included, runs in a circle between folders or between files), at most ten deep;
 * no file is longer than 250 lines, no line longer than 160 characters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const SRC = join(ROOT, 'src');
const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.(ts|mjs|astro)$/.test(f) && !f.endsWith('.d.ts'))
  .map((f) => join(SRC, f));

/** The files of this tree that `file` imports (`import … from`, `export … from`, `import()`, types included). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => normalize(join(dirname(file), m[1]!)));
}

/** A file's room: its folder right under `src/`, or the file itself when it stands there. */
const room = (file: string) => {
  const [first, ...rest] = relative(SRC, file).split('/');
  return rest.length > 0 ? first! : relative(SRC, file);
};

/** The circles of a graph (each reported once, by the path that closes it). */
function circles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, [node]);
  return found;
}

const fileGraph = new Map(files.map((f) => [f, new Set(imports(f).filter((i) => files.includes(i)))]));
const roomGraph = new Map<string, Set<string>>();
for (const [file, targets] of fileGraph) {
  const from = room(file);
  if (!roomGraph.has(from)) roomGraph.set(from, new Set());
  for (const target of targets) if (room(target) !== from) roomGraph.get(from)!.add(room(target));
}

describe("the house's layers", () => {
  it('has no circle of imports between files, nor between the folders under src/', () => {
    expect(circles(fileGraph).map((c) => c.map((f) => relative(ROOT, f)).join(' -> '))).toEqual([]);
    expect(circles(roomGraph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('stacks its folders at most ten deep', () => {
    const depth = new Map<string, number>();
    const floor = (node: string): number => {
      if (!depth.has(node)) depth.set(node, 1 + Math.max(0, ...[...(roomGraph.get(node) ?? [])].map(floor)));
      return depth.get(node)!;
    };
    const deepest = Math.max(...[...roomGraph.keys()].map(floor));
    expect(deepest, JSON.stringify(Object.fromEntries([...depth].sort((a, b) => b[1] - a[1])))).toBeLessThanOrEqual(10);
  });

  it('keeps every file under 250 lines and every line under 160 characters', () => {
    const long = files.filter((f) => readFileSync(f, 'utf8').trimEnd().split('\n').length > 250).map((f) => relative(ROOT, f));
    const wide = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > 160 ? [`${relative(ROOT, f)}:${i + 1}`] : [])),
    );
    expect(long).toEqual([]);
    expect(wide).toEqual([]);
  });
});
