/**
 * Where a line may break inside an e-mail address, as a printer breaks one: before a dot or the at
 * sign, never inside a word ("reception.desk" over "@example.com"). The System page's audit trail
 * puts a `<wbr>` between the parts, so that a narrow column wraps an address there and nowhere else.
 */

/** `text` in parts, a break allowed between each two: inside each address, before each dot or at sign followed by a letter or digit. */
export function addressParts(text: string): string[] {
  const parts = [''];
  for (const token of text.split(/(\s+)/)) {
    const pieces = token.includes('@') ? token.split(/(?=[.@][\p{L}\p{N}_-])/u) : [token];
    parts[parts.length - 1] += pieces[0]!;
    parts.push(...pieces.slice(1));
  }
  return parts;
}
