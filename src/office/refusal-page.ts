/**
 * The office's refusals as pages (403, 404, 405, 409, 413, 429 and the other refusals of its guard and
 * its actions): the office's look (its stylesheet, the layout's header), a heading and the reason in
 * words, and a way back to the inbox. Made without Astro, as the office guard answers before any
 * page renders. Nothing of what was sent is shown (no customer's details, no address asked for):
 * only the words given. Nothing runs or is styled inline, as the pages' Content-Security-Policy asks.
 */
import stylesheet from '../styles/site.css?url';

/** Each refusal's heading, by status: what happened, in a few words. */
const HEADINGS: Record<number, string> = {
  400: 'Not sent in full',
  403: 'Not open to you here',
  404: 'Not found',
  405: 'Not a way to use this page',
  408: 'Not sent in full',
  413: 'Too long to take',
  409: 'Changed meanwhile',
  415: 'Not a form of the office’s',
  429: 'Too many changes in a minute',
};

const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page of a refusal: `words` say why and what to do; `company` heads it as every office page (the office alone when not known). */
export function refusalHtml(status: number, words: string, company: string | undefined): string {
  const heading = HEADINGS[status] ?? 'Not done';
  const brand = company ? `${company} · Office` : 'Office';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex, nofollow" />
    <title>${escaped(`${heading} · ${brand}`)}</title>
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <link rel="stylesheet" href="${escaped(stylesheet)}" />
  </head>
  <body class="office">
    <a class="skip" href="#main">Skip to content</a>
    <header class="site-header">
      <div class="site-header-top"><span class="brand">${escaped(brand)}</span></div>
    </header>
    <main id="main">
      <h1>${escaped(heading)}</h1>
      <p class="problem" role="alert">${escaped(words)}</p>
      <p><a href="/office">Back to the inbox</a></p>
    </main>
  </body>
</html>
`;
}
