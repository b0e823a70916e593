/** What the tests read out of the project's Markdown: code blocks, links, and the anchors headings make. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server.ts';

/** The text of a Markdown file of the project, outside its fenced code blocks (which hold no links). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
}

/** The fenced code blocks of the `## heading` section (up to the next `## `), each block's text. */
export function codeBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```[^\n]*\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => m[1]!.trimEnd());
}

/** The README's quick start: its two commands, the one that installs, builds and starts, and the one that tests. */
export function quickStart(): { run: string; test: string; blocks: string[] } {
  const blocks = codeBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'Quick start');
  return { run: blocks[0] ?? '', test: blocks[1] ?? '', blocks };
}

/** The README's line after the quick start on the office's first account: its command, and the address it names to sign in at. */
export function firstAccount(): { command: string; signIn: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const paragraph = /\*\*The office's first account\*\*[\s\S]*?\n\n/.exec(readme)?.[0] ?? '';
  return { command: /`([^`]+)`/.exec(paragraph)?.[1] ?? '', signIn: /(http:\/\/localhost:\d+\/\S+?)[\s)]/.exec(paragraph)?.[1] ?? '' };
}

/** Every link target of the file's prose, inline (`[text](target)`) or as a reference definition. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  const inline = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!);
  return [...inline, ...references];
}

/** The anchors the file's headings make, as GitHub writes them (`## Backups and restore` → `backups-and-restore`). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    result.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return result;
}
