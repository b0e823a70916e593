/**
 * The editors' content read outside Astro, as its collections give it: each YAML file and each
 * form's frontmatter, held to the same rules (`./sources.ts`). For what runs without a build (the
 * quick tests make the published description from it); a build reads the same files through Astro.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRONTMATTER } from './check.ts';
import { readYaml } from './locate.ts';
import { SOURCES, type Source } from './sources.ts';
import type { CompanyData, ContactFormData, QuoteFormData } from '../site/from-content.ts';

export interface ReadContent {
  company: CompanyData;
  quoteForm: QuoteFormData;
  contactForm: ContactFormData;
}

/** The entry of one source (a YAML file's entry, or one page's frontmatter), checked by its rules; throws with the file's name when it breaks one. */
function entry<T>(root: string, source: Source): T {
  const key = source.yaml?.entry;
  const file = source.yaml?.file ?? `${source.frontmatter!.base}/${source.frontmatter!.pattern}`;
  const text = readFileSync(join(root, file), 'utf8');
  const yaml = key ? text : (FRONTMATTER.exec(text)?.[1] ?? '');
  const read = readYaml(yaml);
  if (read.syntaxLine !== undefined) throw new Error(`${file} cannot be read (line ${read.syntaxLine}): run npm run build to see the mistake`);
  const data = key ? (read.data as Record<string, unknown> | undefined)?.[key] : read.data;
  const result = source.schema.safeParse(data);
  if (!result.success) throw new Error(`${file} breaks a rule of its own: run npm run build to see the mistake`);
  return result.data as T;
}

/** The company's facts and both forms' words, from the project at `root`. */
export function readContent(root: string): ReadContent {
  return {
    company: entry(root, SOURCES.company),
    quoteForm: entry(root, SOURCES.quoteForm),
    contactForm: entry(root, SOURCES.contactForm),
  };
}
