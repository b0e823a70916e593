/**
 * A fast-check arbitrary for the JSON Schema subset the lead forms' schemas use (2020-12 / OpenAPI 3.1):
 * $ref, type (object, string, boolean, array), properties, required, additionalProperties: false,
 * const, enum, anyOf, pattern (via fc.stringMatching), minLength, maxLength, items, maxItems,
 * minItems, uniqueItems, format (only alongside a pattern that already says it). Any other
 * validation keyword throws: the schema cannot outgrow the generator unnoticed.
 */
import fc from 'fast-check';

type Schema = Record<string, any>;
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
const HANDLED = new Set([
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'const',
  'enum',
  'anyOf',
  'pattern',
  'minLength',
  'maxLength',
  'items',
  'maxItems',
  'minItems',
  'uniqueItems',
  'format',
]);

export function schemaArbitrary(doc: Schema, schema: Schema): fc.Arbitrary<unknown> {
  const resolve = (s: Schema): Schema => {
    if (!s.$ref) return s;
    const target = s.$ref
      .slice(2)
      .split('/')
      .reduce((node: Schema, key: string) => node[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    const { $ref: _, ...rest } = s;
    return resolve({ ...target, ...rest });
  };
  const walk = (raw: Schema): fc.Arbitrary<unknown> => {
    const s = resolve(raw);
    for (const key of Object.keys(s)) if (!HANDLED.has(key) && !ANNOTATIONS.has(key)) throw new Error(`schemaArbitrary: keyword ${key} is not supported`);
    if (s.anyOf) {
      const { anyOf, ...common } = s;
      return fc.oneof(...anyOf.map((branch: Schema) => walk({ ...common, ...branch })));
    }
    if ('const' in s) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    switch (s.type) {
      case 'boolean':
        return fc.boolean();
      case 'string': {
        const { minLength = 0, maxLength } = s;
        const base = s.pattern ? fc.stringMatching(new RegExp(s.pattern, 'u'), { maxLength }) : fc.string({ unit: 'grapheme', minLength, maxLength });
        return minLength ? base.filter((v) => [...v].length >= minLength) : base;
      }
      case 'array': {
        const items = walk(s.items ?? {});
        const c = { minLength: s.minItems ?? 0, maxLength: s.maxItems ?? 5 };
        return s.uniqueItems ? fc.uniqueArray(items, { ...c, selector: (v) => JSON.stringify(v) }) : fc.array(items, c);
      }
      case 'object': {
        if (s.additionalProperties !== false) throw new Error('schemaArbitrary: only closed objects are supported');
        const props = Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, walk(v as Schema)]));
        return fc.record(props, { requiredKeys: s.required ?? [] });
      }
    }
    throw new Error(`schemaArbitrary: cannot generate ${JSON.stringify(s).slice(0, 120)}`);
  };
  return walk(schema);
}
