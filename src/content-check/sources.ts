/**
 * Where each collection of the editors' content lives, and its rules: one list, from which
 * `src/content.config.ts` makes Astro's collections and `./check.ts` reads the same files itself.
 */
import type { z } from 'astro/zod';
import { company, trust } from './facts.ts';
import { contactForm, page, quoteForm } from './pages.ts';

export interface Source<S extends z.ZodType = z.ZodType> {
  /** Files of Markdown, whose frontmatter is checked (`base` and `pattern` under the project, less `exclude`). */
  frontmatter?: { base: string; pattern: string; exclude?: string };
  /** A YAML file whose top-level key is its one entry (`company:`), which may be left out when `optional`. */
  yaml?: { file: string; entry: string; optional?: true };
  schema: S;
}

const source = <S extends z.ZodType>(s: Source<S>) => s;

/** The collections, by name. Each form's words have a collection of their own, so that a mistake is reported against that form's own rules. */
export const SOURCES = {
  pages: source({ frontmatter: { base: 'content', pattern: '**/*.mdx', exclude: 'forms/**' }, schema: page }),
  quoteForm: source({ frontmatter: { base: 'content/forms', pattern: 'quote.mdx' }, schema: quoteForm }),
  contactForm: source({ frontmatter: { base: 'content/forms', pattern: 'contact.mdx' }, schema: contactForm }),
  company: source({ yaml: { file: 'content/company.yaml', entry: 'company' }, schema: company }),
  trust: source({ yaml: { file: 'content/trust.yaml', entry: 'trust', optional: true }, schema: trust }),
};
