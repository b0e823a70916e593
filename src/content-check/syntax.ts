/**
 * Where a YAML text an editor wrote goes wrong, and what kind of mistake it is, in words: the
 * parser often gives up further on (an unclosed `{` is found where the file ends, a missing colon
 * where the next part starts), so this finds the line and column where the mistake itself is and
 * says what to write there. Four kinds are told apart: a quote never closed, a group (`{ }`) or
 * list (`[ ]`) never closed, a part written without its colon (or with a second `: ` in its text),
 * and a line indented unlike the lines beside it; anything else gets the general rule.
 */
import { parseDocument } from 'yaml';

export interface SyntaxMistake {
  /** Line and column in the text, from 1. */
  line: number;
  column: number;
  /** What is wrong, as a rule: "must …". */
  allowed: string;
  /** The line as it could be written. */
  example?: string;
}

/** The general rule, for a mistake of no kind told apart. */
export const GENERAL_RULE =
  'must be written as name: value, each on a line of its own, indented by two spaces under the group it belongs to; ' +
  'a text with ": " or " #" in it goes in double quotes';

const errorsOf = (text: string) => parseDocument(text, { customTags: ['timestamp'], prettyErrors: false }).errors;
const indentOf = (line: string) => line.length - line.trimStart().length;
const isContent = (line: string) => line.trim() !== '' && !line.trimStart().startsWith('#') && line.trim() !== '---';

/** Each character of `line` that is YAML syntax (not in quotes, not in a comment), with its index. */
function* syntaxChars(line: string): Generator<[string, number]> {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return;
    else if ((c === '"' || c === "'") && (i === 0 || /[\s:{[,-]/.test(line[i - 1]!))) quote = c;
    else yield [c, i];
  }
}

/** Where a quote opens on `line` and never closes, if one does. */
function unclosedQuote(line: string): number | undefined {
  let open: number | undefined;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) [quote, open] = [undefined, undefined];
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) break;
    else if ((c === '"' || c === "'") && (i === 0 || /[\s:{[,]/.test(line[i - 1]!))) [quote, open] = [c, i];
  }
  return open;
}

/**
 * Where a `{` or `[` opens and is never closed, as [line index, column], if one is: a group may go
 * on over the lines indented under its own, and is unclosed once a line at its own indentation or
 * less begins, or the text ends.
 */
function unclosedGroup(lines: readonly string[]): [number, number] | undefined {
  const open: Array<[number, number]> = [];
  for (const [i, line] of lines.entries()) {
    if (!isContent(line)) continue;
    const innermost = open.at(-1);
    if (innermost && indentOf(line) <= indentOf(lines[innermost[0]]!)) return open[0];
    for (const [c, at] of syntaxChars(line)) {
      if (c === '{' || c === '[') open.push([i, at]);
      else if (c === '}' || c === ']') open.pop();
    }
  }
  return open[0];
}

/** Whether `line` (a list's `- ` aside) names a part: `name:` followed by a value or nothing. */
function hasColon(line: string): boolean {
  for (const [c] of syntaxChars(line.trimStart().replace(/^- /, ''))) if (c === ':') return true;
  return false;
}

/** Where a second `: ` starts in a part's plain text (`title: Terms: what you agree to`), if it does. */
function colonInText(line: string): number | undefined {
  const colons = [...syntaxChars(line)].filter(([c, i]) => c === ':' && (line[i + 1] === ' ' || i === line.length - 1));
  if (colons.length < 2 || /[{[]/.test(line)) return undefined;
  return line.slice(colons[0]![1] + 1).search(/\S/) + colons[0]![1] + 1;
}

/** The mistake of `text` (`undefined` when YAML reads it); lines counted from `firstLine`. */
export function syntaxMistake(text: string, firstLine = 1): SyntaxMistake | undefined {
  if (errorsOf(text).length === 0) return undefined;
  const lines = text.split('\n');
  const at = (index: number, column: number, allowed: string, example?: string): SyntaxMistake => ({
    line: firstLine + index,
    column: column + 1,
    allowed,
    ...(example !== undefined && { example: example.trim() }),
  });
  // A quote or a group opened and never closed: the parser only notices further on.
  const said = errorsOf(text).map((e) => e.message);
  if (said.some((m) => /Missing closing .?quote/.test(m)))
    for (const [i, line] of lines.entries()) {
      const quote = isContent(line) ? unclosedQuote(line) : undefined;
      if (quote === undefined) continue;
      const q = line[quote]!;
      const trimmed = line.trimEnd();
      const fixed = trimmed.endsWith('}') ? `${trimmed.slice(0, -1).trimEnd()}${q} }` : `${trimmed}${q}`;
      return at(i, quote, `must close the quote (${q}) it opens, on the same line: a text in quotes starts and ends with ${q}`, fixed);
    }
  const group = said.some((m) => /flow (map|sequence|collection)|end with a [}\]]/i.test(m)) ? unclosedGroup(lines) : undefined;
  if (group) {
    const [i, column] = group;
    const [open, close, what] = lines[i]![column] === '{' ? ['{', '}', 'group'] : ['[', ']', 'list'];
    return at(i, column, `must end with ${close}, to match the ${open} that opens the ${what} on this line`, `${lines[i]!.trimEnd()} ${close}`);
  }
  // Otherwise the first line from which the text cannot be read.
  let bad = lines.findIndex((_, i) => isContent(lines[i]!) && errorsOf(lines.slice(0, i + 1).join('\n')).length > 0);
  if (bad < 0) bad = lines.length - 1;
  let before = bad - 1;
  while (before >= 0 && !isContent(lines[before]!)) before--;
  const line = lines[bad]!;
  const previous = before >= 0 ? lines[before]! : undefined;
  const missingColon = (l: string) => `${' '.repeat(indentOf(l))}${l.trim().replace(/^(- )?(\S+)\s*/, '$1$2: ')}`;
  const colonRule = 'must have a colon and a space after the name of the part, as name: value';
  if (previous !== undefined && indentOf(previous) === indentOf(line) && !hasColon(previous))
    return at(before, indentOf(previous), colonRule, missingColon(previous));
  if (!hasColon(line)) return at(bad, indentOf(line), colonRule, missingColon(line));
  const inText = colonInText(line);
  if (inText !== undefined) {
    const name = line.slice(0, line.indexOf(':') + 1);
    return at(bad, inText, 'must have its text in double quotes: a text with ": " in it goes in double quotes', `${name} "${line.slice(inText).trim()}"`);
  }
  const siblings = lines.slice(0, bad).filter(isContent).map(indentOf);
  if (previous !== undefined && !siblings.includes(indentOf(line))) {
    const expected = indentOf(previous);
    return at(
      bad,
      indentOf(line),
      `must start at the same column as the line above it (${expected} spaces in, not ${indentOf(line)}): ` +
        'the parts of one group are indented alike, by two spaces under the group they belong to',
      `${' '.repeat(expected)}${line.trim()}`,
    );
  }
  return at(bad, indentOf(line), GENERAL_RULE, 'title: "Terms: what you agree to"');
}
