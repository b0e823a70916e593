/**
 * One Node story: the pinned `node` package (Node 24) runs the build, the server and the tests; the
 * machine's Node only runs npm. `engines` in package.json names that machine Node and npm, and the
 * README, the guides and what `npm install` prints say the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string; npm: string };
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const README = read('README.md');
/** The guides, the decision records and the security promises: every text that may name a Node. */
const TEXTS = ['README.md', 'SECURITY.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

/** "Node 24", "Node 20.17", "Node.js 22.12.0": a Node named by version (not "bare Node 42 MiB", a measure). */
const NODE_NAMED = /\bNode(?:\.js)? (\d+)(\.\d+(?:\.\d+)?)?(?![\d.]|\s*(?:[KMG]iB|µs|ms|–))/g;

/** The major of the pinned Node (`"node": "^24.21.0"` in the dependencies). */
const PINNED = Number(/^\^?(\d+)\./.exec(pkg.dependencies.node ?? '')?.[1]);

/** Whether `version` (`20.20` or `20.20.2`) is in `range`, as `engines` writes it: `>=a.b.c` and `^a.b.c` joined by `||`. */
function satisfies(version: string, range: string): boolean {
  const parse = (v: string) => v.split('.').map(Number).concat([0, 0, 0]).slice(0, 3) as [number, number, number];
  const cmp = (a: number[], b: number[]) => a.reduce((d, n, i) => d || n - b[i]!, 0);
  const v = parse(version);
  return range.split('||').some((part) => {
    const m = /^\s*(>=|\^)\s*(\d+(?:\.\d+){0,2})\s*$/.exec(part);
    if (!m) throw new Error(`engines range not understood: ${part}`);
    const low = parse(m[2]!);
    return cmp(v, low) >= 0 && (m[1] === '>=' || v[0] === low[0]);
  });
}

/** The lowest version a range admits (`20.17` of `^20.17.0 || >=22.9.0`). */
const lowest = (range: string) => /(\d+)\.(\d+)/.exec(range)!.slice(1, 3).join('.');

describe('one Node story', () => {
  it('pins the Node that runs everything in the node package, and the scripts and the unit run that one', () => {
    expect(PINNED).toBeGreaterThanOrEqual(24);
    // npm puts node_modules/.bin first on PATH: `node` in a script is the pinned one.
    for (const name of ['start', 'leads', 'postinstall']) expect(pkg.scripts[name], name).toMatch(/(^|exec )node /);
    expect(read('deploy/lead-intake.service')).toMatch(/ExecStart=\S*node_modules\/\.bin\/node /);
  });

  it('names in engines the Node and npm that run npm install: the machine they were checked on, not the pinned Node alone', () => {
    const checked = /checked with Node (\d+\.\d+(?:\.\d+)?) and\s+npm (\d+(?:\.\d+){0,2})/.exec(README);
    expect(checked, 'the README says which Node and npm it was checked with').not.toBeNull();
    expect(satisfies(checked![1]!, pkg.engines.node), `engines.node ${pkg.engines.node} admits the checked Node ${checked![1]}`).toBe(true);
    expect(satisfies(checked![2]!, pkg.engines.npm), `engines.npm ${pkg.engines.npm} admits the checked npm ${checked![2]}`).toBe(true);
    expect(Number(checked![1]!.split('.')[0])).toBeLessThan(PINNED);
  });

  it('says in the README what engines says, and what npm install prints', () => {
    const text = README.replace(/\s+/g, ' ');
    expect(text).toContain(`Node ${lowest(pkg.engines.node)} or newer`);
    expect(text).toContain(`npm ${/\d+/.exec(pkg.engines.npm)![0]}`);
    expect(text).toContain(`installs Node ${PINNED}, pinned by the \`node\` package`);
    expect(text).toMatch(/The machine's Node only runs npm/i);
    const installed = read('src/cli/installed.ts');
    expect(installed).toMatch(/pinned by the node package, runs npm run build, npm start and npm test; the machine's Node only runs npm/);
  });

  it('names no other Node anywhere: each is the pinned one, or a machine Node that engines admits', () => {
    const wrong: string[] = [];
    for (const file of TEXTS) {
      for (const m of read(file).matchAll(NODE_NAMED)) {
        const major = Number(m[1]);
        if (major === PINNED) continue;
        // A machine Node is named with its minor (Node 20.17), never as a bare major that engines may not admit.
        if (m[2] && satisfies(`${m[1]}${m[2]}`, pkg.engines.node) && major < PINNED) continue;
        wrong.push(`${file}: "${m[0]}"`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
