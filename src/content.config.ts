/**
 * What editors change: MDX pages under the top-level `content/`, the words of the two web forms
 * (`content/forms/`), the company's facts (`content/company.yaml`) and what a customer can check
 * before trusting it (`content/trust.yaml`), each with its rules (`src/content-check/`).
 *
 * The rules are checked before Astro reads a file (`src/integrations/content-check.ts`): a build
 * stops with every mistake listed at once, and under `npm run dev` the browser shows that list
 * until the files are right. So under `npm run dev` alone, an entry that breaks a rule is kept as
 * written instead of stopping the dev server: no page is shown from it while the list is shown.
 */
import { defineCollection } from 'astro:content';
import { file, glob, type Loader } from 'astro/loaders';
import { z } from 'astro/zod';
import { SOURCES, type Source } from './content-check/sources.ts';

/** `schema`, which under `npm run dev` lets an entry that breaks it through as written (see above). */
const checked = <S extends z.ZodType>(schema: S): S =>
  import.meta.env.DEV
    ? (z.unknown().transform((data) => {
        const result = schema.safeParse(data);
        return result.success ? result.data : data;
      }) as unknown as S)
    : schema;

/** What the loader is given to read a page's frontmatter (Astro's `entryTypes`, by extension: not in its public types). */
type EntryTypes = Map<string, { getEntryInfo: (params: unknown) => unknown }>;

/**
 * `loader`, which under `npm run dev` reads a page whose frontmatter YAML cannot read as having
 * none, instead of stopping the dev server as it starts; the list says where the file goes wrong.
 */
const tolerant = (loader: Loader): Loader =>
  import.meta.env.DEV
    ? {
        ...loader,
        load: (context) => {
          const entryTypes = (context as unknown as { entryTypes: EntryTypes }).entryTypes;
          const unread = { data: {}, body: '', rawData: '' };
          const forgiving = new Map(
            [...entryTypes].map(([ext, type]) => [
              ext,
              {
                ...type,
                getEntryInfo: (params: unknown) =>
                  Promise.resolve(params)
                    .then(type.getEntryInfo)
                    .catch(() => unread),
              },
            ]),
          );
          return loader.load({ ...context, entryTypes: forgiving } as typeof context);
        },
      }
    : loader;

const collection = <S extends z.ZodType>({ frontmatter, yaml, schema }: Source<S>) =>
  defineCollection({
    loader: frontmatter
      ? tolerant(glob({ base: `./${frontmatter.base}`, pattern: frontmatter.exclude ? [frontmatter.pattern, `!${frontmatter.exclude}`] : frontmatter.pattern }))
      : file(yaml!.file),
    schema: checked(schema),
  });

export const collections = {
  pages: collection(SOURCES.pages),
  quoteForm: collection(SOURCES.quoteForm),
  contactForm: collection(SOURCES.contactForm),
  company: collection(SOURCES.company),
  trust: collection(SOURCES.trust),
};
