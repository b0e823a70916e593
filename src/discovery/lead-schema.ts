/**
 * The request body's JSON Schema on its own (`/schemas/lead-submission.json`): the OpenAPI
 * description's `LeadSubmission`, the union of the quote request and the contact message, with
 * every schema it names copied under `$defs`, so that it is one JSON Schema 2020-12 document with
 * its own `$id` and no reference outside itself. Any validator reads it, with no OpenAPI handling;
 * its patterns spell out ECMA-262's `\s` and `\d`, which other regular-expression engines (Python's)
 * read otherwise, so that every engine matches the same strings.
 */
import { API_PATHS, LEAD_SCHEMA_PATH, SCHEMA_MEDIA_TYPE } from '../service-facts.ts';

type Json = Record<string, any>;

export { SCHEMA_MEDIA_TYPE };

/** OpenAPI's own keywords, which are not JSON Schema's: left out. */
const OPENAPI_ONLY = new Set(['discriminator', 'xml', 'externalDocs', 'example']);

const COMPONENT = '#/components/schemas/';

/** ECMA-262's white space and line terminators, which its `\s` stands for. */
const WHITE_SPACE = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** The classes ECMA-262 gives `\s`, `\d` and `\w`, as ranges every engine reads alike. */
const CLASSES: Record<string, string> = { s: WHITE_SPACE, d: '0-9', w: 'A-Za-z0-9_' };

/** `pattern` with each `\s`, `\d`, `\w` (and their negations) written as the characters ECMA-262 gives them. */
export function portablePattern(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[++i]!;
      const members = CLASSES[next.toLowerCase()];
      if (members === undefined) out += `\\${next}`;
      else if (next === next.toLowerCase()) out += inClass ? members : `[${members}]`;
      else if (inClass) throw new Error(`the pattern ${pattern} negates \\${next.toLowerCase()} inside a class`);
      else out += `[^${members}]`;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}

/** `value` with its references to the description's schemas made references to `$defs`, and OpenAPI's keywords left out. */
function local(value: unknown, named: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => local(v, named));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Json)
      .filter(([key]) => !OPENAPI_ONLY.has(key))
      .map(([key, v]) => {
        if (key === '$ref' && typeof v === 'string') {
          if (!v.startsWith(COMPONENT)) throw new Error(`the lead schema refers to ${v}, outside the description's schemas`);
          named.add(v.slice(COMPONENT.length));
          return [key, `#/$defs/${v.slice(COMPONENT.length)}`];
        }
        if (key === 'pattern' && typeof v === 'string') return [key, portablePattern(v)];
        // `properties` maps names to schemas: its keys are never keywords.
        if (key === 'properties') return [key, Object.fromEntries(Object.entries(v as Json).map(([name, s]) => [name, local(s, named)]))];
        return [key, local(v, named)];
      }),
  );
}

/** The standalone schema of `doc` (the completed OpenAPI description of a deployment). */
export function leadSubmissionSchema(doc: Json): Json {
  const schemas = doc.components.schemas as Record<string, Json>;
  const named = new Set<string>();
  const root = local(schemas.LeadSubmission, named) as Json;
  const defs: Record<string, unknown> = {};
  // Each schema named, and what it names in turn.
  for (let grew = true; grew;) {
    grew = false;
    for (const name of [...named].sort()) {
      if (name in defs) continue;
      if (!schemas[name]) throw new Error(`the lead schema refers to #/components/schemas/${name}, which does not exist`);
      defs[name] = local(schemas[name], named);
      grew = true;
    }
  }
  const origin = doc.servers[0].url as string;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${origin}${LEAD_SCHEMA_PATH}`,
    title: 'Lead submission',
    ...root,
    $comment: `The request body of POST ${origin}${API_PATHS.leads}, as ${origin}/openapi.json describes it (LeadSubmission).`,
    $defs: Object.fromEntries(
      Object.keys(defs)
        .sort()
        .map((name) => [name, defs[name]]),
    ),
  };
}
