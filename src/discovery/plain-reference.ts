/**
 * The API reference as plain HTML, from the completed OpenAPI description: every operation, its
 * headers, every field of both forms with its rule, every answer and every problem code. `/api-docs`
 * serves it as the page itself, painted first, with Redoc loaded after it (at once on wide screens,
 * on demand on phones), so that a client without JavaScript (a text browser, an agent reading the
 * HTML) reads the whole reference.
 */
import { plural } from '../lib/text.ts';

type Json = Record<string, any>;

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The description's Markdown, as far as these texts use it: paragraphs, list items, `code`, **strong**, [links](…). */
function prose(markdown: string | undefined): string {
  if (!markdown) return '';
  const inline = (text: string) =>
    escape(text)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
  return markdown
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n');
      if (/^#{1,6} /.test(lines[0]!)) {
        const [heading, ...rest] = lines;
        return `<p><strong>${inline(heading!.replace(/^#+ /, ''))}</strong></p>${rest.length ? `<p>${inline(rest.join(' '))}</p>` : ''}`;
      }
      if (lines.every((l) => /^\s*(?:[-*]|\d+\.) /.test(l)))
        return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*(?:[-*]|\d+\.) /, ''))}</li>`).join('')}</ul>`;
      return `<p>${inline(lines.join(' '))}</p>`;
    })
    .join('\n');
}

const refName = (ref: string) => ref.split('/').pop()!;

/** A field's rule in words: its type and every constraint the schema states; each branch of an `anyOf`. */
function rule(schema: Json): string {
  if (schema.anyOf) {
    const { anyOf, ...rest } = schema;
    return (anyOf as Json[]).map((branch) => `${branch.title ? `${escape(branch.title)}: ` : ''}${rule({ ...rest, ...branch })}`).join('; or ');
  }
  const parts: string[] = [escape(Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any'))];
  if (schema.const !== undefined) parts.push(`exactly <code>${escape(JSON.stringify(schema.const))}</code>`);
  if (schema.enum) parts.push(`one of ${schema.enum.map((v: unknown) => `<code>${escape(JSON.stringify(v))}</code>`).join(', ')}`);
  if (schema.minLength !== undefined) parts.push(`at least ${plural(schema.minLength, 'character')}`);
  if (schema.maxLength !== undefined) parts.push(`at most ${plural(schema.maxLength, 'character')}`);
  if (schema.format) parts.push(`format ${escape(schema.format)}`);
  if (schema.pattern) parts.push(`matches <code>${escape(schema.pattern)}</code>`);
  return parts.join('; ');
}

function fieldsTable(doc: Json, schema: Json): string {
  const required = new Set<string>(schema.required ?? []);
  const rows = Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => {
    const field = property.$ref ? doc.components.schemas[refName(property.$ref)] : property;
    const examples = (field.examples ?? []) as unknown[];
    return `<tr><td><code>${escape(name)}</code></td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${rule(field)}</td><td>${prose(field.description)}${
      examples.length ? `<p>Examples: ${examples.map((e) => `<code>${escape(typeof e === 'string' ? e : JSON.stringify(e))}</code>`).join(', ')}</p>` : ''
    }</td></tr>`;
  });
  return (
    `<table><thead><tr><th scope="col">Field</th><th scope="col">Required</th><th scope="col">Rule</th><th ` +
    `scope="col">Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function operation(doc: Json, path: string, method: string, op: Json): string {
  const out = [
    `<h2 id="${escape(op.operationId ?? `${method}-${path}`)}"><code>${method.toUpperCase()} ` +
      `${escape(path)}</code>${op.deprecated ? ' (deprecated)' : ''}</h2>`,
    `<p>${escape(op.summary ?? '')}</p>`,
    prose(op.description),
  ];
  const parameters = (op.parameters ?? []).map((p: Json) => (p.$ref ? doc.components.parameters[refName(p.$ref)] : p));
  if (parameters.length > 0) {
    out.push(
      '<h3>Request headers</h3><dl>',
      ...parameters.map(
        (p: Json) =>
          `<dt><code>${escape(p.name)}</code> (${p.required ? 'required' : 'not required by the server'}; ` +
          `${rule(p.schema ?? {})})</dt><dd>${prose(p.description)}${p.example ? `<p>Example: <code>${escape(String(p.example))}</code></p>` : ''}</dd>`,
      ),
      '</dl>',
    );
  }
  if (op.requestBody) {
    const body = op.requestBody.$ref ? doc.components.requestBodies[refName(op.requestBody.$ref)] : op.requestBody;
    const schema = body.content['application/json'].schema;
    const root = schema.$ref ? doc.components.schemas[refName(schema.$ref)] : schema;
    out.push('<h3>Request body (<code>application/json</code>)</h3>', prose(body.description), prose(root.description));
    for (const variant of (root.oneOf ?? [root]) as Json[]) {
      const form = variant.$ref ? doc.components.schemas[refName(variant.$ref)] : variant;
      out.push(`<h4>${escape(form.title ?? 'Fields')}</h4>`, prose(form.description), fieldsTable(doc, form));
    }
  }
  out.push('<h3>Responses</h3><dl>');
  for (const [status, listed] of Object.entries(op.responses as Record<string, Json>)) {
    const response = listed.$ref ? doc.components.responses[refName(listed.$ref)] : listed;
    // The codes of this answer's own status (an answer's examples may be shared by several statuses).
    const isProblem = Object.keys(response.content ?? {}).some((type) => type.endsWith('problem+json'));
    const codes = isProblem
      ? problemsOf(doc)
          .filter((p) => String(p.status) === status)
          .map((p) => p.code)
      : [];
    const listedCodes = codes.length ? `<p>Problem codes: ${codes.map((c: string) => `<code>${escape(c)}</code>`).join(', ')}</p>` : '';
    out.push(`<dt>${escape(status)}</dt><dd>${prose(response.description)}${listedCodes}</dd>`);
  }
  out.push('</dl>');
  return out.join('\n');
}

/** Every problem code's example in `doc`, by status, then code. */
function problemsOf(doc: Json): Json[] {
  return [...((doc.components.schemas.Problem.examples ?? []) as Json[]), ...Object.values(doc.components.examples as Record<string, Json>).map((e) => e.value)]
    .filter((v) => v?.code && v?.title)
    .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** The plain reference of `doc`, the body of `/api-docs` before Redoc replaces it. */
export function plainReference(doc: Json): string {
  const operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete', 'options'].filter((m) => item[m]).map((m) => operation(doc, path, m, item[m])),
  );
  const problems = problemsOf(doc);
  return [
    '<main class="plain-reference">',
    `<h1>${escape(doc.info.title)} ${escape(doc.info.version)}: API reference</h1>`,
    `<p>${escape(doc.info.summary ?? '')} The same description as JSON: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escape(doc.openapi)}).</p>`,
    prose(doc.info.description),
    ...(doc.servers as Json[]).map((server) => `<p>Server <code>${escape(server.url)}</code>: ${escape(server.description ?? '')}</p>`),
    ...operations,
    '<h2 id="problem-codes">Problem codes</h2>',
    '<table><thead><tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col">Title</th><th scope="col">What to do</th></tr></thead><tbody>',
    ...problems.map(
      (p) => `<tr><td><code>${escape(p.code)}</code></td><td>${p.status}</td><td>${escape(p.title)}</td><td>${escape(p.resolution ?? '')}</td></tr>`,
    ),
    '</tbody></table>',
    '</main>',
  ].join('\n');
}
