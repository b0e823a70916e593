/**
 * The list of mistakes, as the editors read it: in the terminal and a failed build (text), and in
 * the browser under `npm run dev` (a page of its own). The same words in both.
 */
import type { Mistake } from './check.ts';

/** The list's heading: "3 mistakes in content/ to fix". */
export const heading = (mistakes: readonly Mistake[]) => `${mistakes.length} ${mistakes.length === 1 ? 'mistake' : 'mistakes'} in content/ to fix`;

const WHERE = (m: Mistake) => `${m.file}, line ${m.line}${m.column === undefined ? '' : `, column ${m.column}`}${m.field ? `: ${m.field}` : ''}`;

/** What each mistake says under where it is: the rule, an example and what was written. */
const lines = (m: Mistake): Array<[string, string]> => [
  ['', m.allowed],
  ...(m.example === undefined ? [] : [['for example', m.example] as [string, string]]),
  ...(m.found === undefined ? [] : [['you wrote', m.found] as [string, string]]),
];

/** The list as text, a mistake per paragraph. */
export function mistakesText(mistakes: readonly Mistake[]): string {
  const each = mistakes.map((m) => [WHERE(m), ...lines(m).map(([label, text]) => `  ${label ? `${label}: ` : ''}${text}`)].join('\n'));
  return [`${heading(mistakes)}. Each names the file, the line and the field:`, ...each].join('\n\n');
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The page's own style (no site style: the mistakes may be in what the site's pages are made of). */
const STYLE = `body{font:1rem/1.5 system-ui,sans-serif;margin:0 auto;max-width:46rem;padding:1rem;color:#1a1a1a}
h1{font-size:1.5rem;color:#8a1c1c}ol{padding-left:1.25rem}li{margin:0 0 1.25rem}h2{font-size:1.05rem;margin:0 0 .25rem;overflow-wrap:anywhere}
code,kbd{font:.95em ui-monospace,monospace;background:#f3f3f3;padding:0 .2em;overflow-wrap:anywhere}.rule{margin:.25rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .75rem;margin:.25rem 0}dt{color:#555}dd{margin:0}`;

/** The page under `npm run dev` while content has mistakes. It reloads itself once a file changes (Vite's client). */
export function mistakesPage(mistakes: readonly Mistake[]): string {
  const items = mistakes.map((m) => {
    const [[, rule], ...rest] = lines(m);
    const details = rest.map(([label, text]) => `<dt>${escape(label)}</dt><dd><code>${escape(text)}</code></dd>`).join('');
    return `<li><h2>${escape(WHERE(m))}</h2><p class="rule">${escape(rule!)}</p>${details ? `<dl>${details}</dl>` : ''}</li>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(heading(mistakes))}</title><style>${STYLE}</style><script type="module" src="/@vite/client"></script></head>
<body><main><h1>${escape(heading(mistakes))}</h1>
<p>The site shows again once they are fixed: save the file, and this page reloads by itself.</p>
<ol>${items.join('')}</ol></main></body></html>`;
}
