/**
 * The pages editors change: MDX files under the top-level `content/` folder. Their frontmatter is
 * checked here, so a typo fails the build with a message naming the file and the field.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

const pages = defineCollection({
  loader: glob({ base: './content', pattern: '**/*.mdx' }),
  schema: z.strictObject({
    /** The page's title, shown as its heading and in the browser tab. */
    title: z.string().min(3).max(80),
    /** One or two sentences for search results and link previews. */
    description: z.string().min(20).max(200),
    /** When the text last changed in substance (YYYY-MM-DD). */
    updated: z.coerce.date(),
    /** Position in the main navigation; leave out to keep the page out of it. */
    nav: z.strictObject({ label: z.string().min(2).max(24), order: z.number().int().min(0) }).optional(),
  }),
});

export const collections = { pages };
