/**
 * The README and the guides are one set of front doors: every relative link between them leads to
 * a file that exists (and to a heading that exists, when it names one), and the README's quick start
 * is two commands a newcomer can paste one at a time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, linkTargets, quickStart } from '../support/markdown.ts';
import { ROOT } from '../support/server.ts';

/** README.md and every Markdown file under docs/, as paths from the project's root. */
function documents(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return ['README.md', ...under('docs')];
}

/** Where a link leads that does not resolve, in words; nothing when it does, or when it leaves the project (a URL, a site path). */
function broken(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) return undefined;
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? join(ROOT, from) : join(ROOT, dirname(from), decodeURIComponent(path));
  if (!existsSync(file)) return `${from}: ${target} leads to ${relative(ROOT, file)}, which does not exist`;
  if (anchor !== undefined && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor))
    return `${from}: ${target} names a heading that ${relative(ROOT, file)} does not have`;
  return undefined;
}

describe('the README and the guides', () => {
  it('link only to files and headings that exist', () => {
    const files = documents();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/office.md', 'docs/editors.md', 'docs/operator.md', 'docs/contributing.md']));
    const links = files.flatMap((from) => linkTargets(readFileSync(join(ROOT, from), 'utf8')).map((target) => ({ from, target })));
    expect(links.length).toBeGreaterThan(20);
    expect(links.map(({ from, target }) => broken(from, target)).filter(Boolean)).toEqual([]);
  });

  it('send each reader from the README to a guide of their own', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const guides = linkTargets(readme).filter((target) => /^docs\/[a-z]+\.md$/.test(target));
    expect(guides).toEqual(expect.arrayContaining(['docs/office.md', 'docs/editors.md', 'docs/operator.md', 'docs/contributing.md']));
  });

  it('start with a quick start of two commands, each in a code block of its own, so that one returning never stops the other', () => {
    const { blocks } = quickStart();
    expect(blocks).toEqual(['npm install && npm run build && npm start', 'npm test']);
  });
});
