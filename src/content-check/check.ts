/**
 * Every mistake in the editors' content at once: each file of each collection (`./sources.ts`)
 * read from the project at `root` as Astro reads it, and held to its rules, each mistake with its
 * file, line, field, rule, example and what was written. Run before a build and, under
 * `npm run dev`, before each page (`src/integrations/content-check.ts`).
 */
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'astro/zod';
import { fieldWords, readYaml, type ReadYaml } from './locate.ts';
import { readMessage } from './rules.ts';
import { GENERAL_RULE, syntaxMistake } from './syntax.ts';
import { SOURCES, type Source } from './sources.ts';

export interface Mistake {
  /** The file, from the project's folder: `content/company.yaml`. */
  file: string;
  line: number;
  /** Where on the line, from 1, for a line YAML cannot read (there the field cannot be named). */
  column?: number;
  /** The field in the editors' words: "reviews → review 2 → date"; empty for the whole file. */
  field: string;
  /** What is allowed: "must be a date written YYYY-MM-DD". */
  allowed: string;
  /** An example, as written in the file. */
  example?: string;
  /** What was written instead, in words: "10 characters ("22/11/2026")", "nothing". */
  found?: string;
}

/** A page's frontmatter, as Astro finds it (`@astrojs/internal-helpers/frontmatter`). */
export const FRONTMATTER = /(?:^\uFEFF?|^\s*\n)---([\s\S]*?\n)---/;

/** What YAML cannot read in `yaml` (lines from `firstLine` of `file`, whose whole text is `text`): where the mistake is, and its kind in words. */
const unreadable = (file: string, text: string, yaml: string, firstLine: number): Mistake => {
  const mistake = syntaxMistake(yaml, firstLine) ?? { line: firstLine, column: 1, allowed: GENERAL_RULE };
  const written = (text.split('\n')[mistake.line - 1] ?? '').trim();
  // Nothing after a line that cannot be read is read at all: say so, or a fixed line seems to bring new mistakes.
  const rest = `. The rest of ${file} is checked once this line can be read`;
  return { file, field: '', ...mistake, allowed: `${mistake.allowed}${rest}`, found: written.length > 60 ? `${written.slice(0, 60)}…` : written };
};

export function checkContent(root: string): Mistake[] {
  const mistakes: Mistake[] = [];
  for (const source of Object.values(SOURCES) as Source[]) {
    if (source.frontmatter) {
      const { base, pattern, exclude } = source.frontmatter;
      const files = globSync(pattern, { cwd: join(root, base), exclude: exclude ? [exclude] : [] }).sort();
      for (const name of files) {
        const file = `${base}/${name}`;
        const text = readFileSync(join(root, file), 'utf8');
        const match = FRONTMATTER.exec(text);
        const firstLine = match ? text.slice(0, text.indexOf(match[1]!, match.index)).split('\n').length : 1;
        const read = match ? readYaml(match[1]!, firstLine) : readYaml('{}');
        if (read.syntaxLine !== undefined) mistakes.push(unreadable(file, text, match![1]!, firstLine));
        else mistakes.push(...entryMistakes(file, read, [], source.schema));
      }
    } else if (source.yaml) {
      const { file, entry, optional } = source.yaml;
      const text = readFileSync(join(root, file), 'utf8');
      const read = readYaml(text);
      const top = read.data;
      if (read.syntaxLine !== undefined) {
        mistakes.push(unreadable(file, text, text, 1));
        continue;
      }
      const keys = top && typeof top === 'object' ? Object.keys(top) : [];
      for (const key of keys.filter((k) => k !== entry))
        mistakes.push({ file, line: read.lineOf([key]), field: key, allowed: `has no part named "${key}": the file holds ${entry}: alone` });
      if (keys.includes(entry) || !optional)
        mistakes.push(...entryMistakes(file, read, [entry], source.schema, (top as Record<string, unknown> | undefined)?.[entry]));
    }
  }
  return mistakes.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** The mistakes of one entry (`data`, read at `prefix` in `read`) against `schema`. */
function entryMistakes(file: string, read: ReadYaml, prefix: PropertyKey[], schema: z.ZodType, data = read.data): Mistake[] {
  const result = schema.safeParse(data ?? (prefix.length > 0 ? undefined : {}));
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const path = [...issue.path, ...keys.slice(0, 1)];
    const { allowed, example, found } = readMessage(issue.message);
    const last = path.at(-1);
    return {
      file,
      line: read.lineOf([...prefix, ...path]),
      field: fieldWords(path) || String(prefix[0] ?? ''),
      allowed,
      ...(example === undefined ? {} : { example: typeof last === 'string' ? `${last}: ${example}` : example }),
      ...(found === undefined ? {} : { found }),
    };
  });
}
