/**
 * Where a field is in a file, and its name in the editors' words: the YAML of a file (or of a
 * page's frontmatter) read with its lines, as Astro reads it (YAML 1.2 with dates, as js-yaml does).
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';

export interface ReadYaml {
  /** What the YAML says, or `undefined` when it cannot be read: then `syntaxLine` is where it goes wrong. */
  data?: unknown;
  syntaxLine?: number;
  /** The line in the file of the field at `path` (the nearest one written, when it is missing). */
  lineOf(path: readonly PropertyKey[]): number;
}

/**
 * The text each date was read from: YAML reads `2026-02-30` as March 2 and `2026-13-01` as the
 * next January, so a rule that the date must be the day written needs what was written.
 */
const written = new WeakMap<Date, string>();

/** The text `date` was read from by `readYaml`; `undefined` for a date read otherwise (Astro's own reading keeps none). */
export const writtenAs = (date: Date): string | undefined => written.get(date);

/** Reads `text`, whose first line is line `firstLine` of its file. */
export function readYaml(text: string, firstLine = 1): ReadYaml {
  const lines = new LineCounter();
  const doc = parseDocument(text, { customTags: ['timestamp'], lineCounter: lines, prettyErrors: false });
  const at = (offset: number) => firstLine - 1 + lines.linePos(offset).line;
  const lineOf = (path: readonly PropertyKey[]) => at(offsetOf(doc, path));
  if (doc.errors.length > 0) return { syntaxLine: at(doc.errors[0]!.pos[0]), lineOf };
  // What `toJS` gives is the node's own Date: each is known by the text it was read from.
  visit(doc, { Scalar: (_, node) => void (node.value instanceof Date && node.source !== undefined && written.set(node.value, node.source)) });
  return { data: doc.toJS() ?? undefined, lineOf };
}

/** The offset of the field at `path`: its key, or its item in a list; the nearest one written when it is not. */
function offsetOf(doc: Document, path: readonly PropertyKey[]): number {
  let node: unknown = doc.contents;
  let offset = doc.contents?.range?.[0] ?? 0;
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
      if (!pair) break;
      offset = (pair.key as { range?: [number] }).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number' && node.items[step]) {
      node = node.items[step];
      offset = (node as { range?: [number] }).range?.[0] ?? offset;
    } else break;
  }
  return offset;
}

/** What one item of each list is called, for "reviews → review 2 → name". */
const ITEM: Readonly<Record<string, string>> = {
  reviews: 'review',
  hours: 'line',
  serviceArea: 'town',
  postalCodes: 'ZIP code',
  services: 'cleaning',
  topics: 'topic',
  closedDays: 'day',
};

/** A field's name as an editor reads the file: "fields → email → label", "reviews → review 2 → date" (counted from 1). */
export function fieldWords(path: readonly PropertyKey[]): string {
  return path.map((step, i) => (typeof step === 'number' ? `${ITEM[String(path[i - 1])] ?? 'entry'} ${step + 1}` : String(step))).join(' → ');
}
