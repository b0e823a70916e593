/**
 * What a spam trap caught, shown as inert text: it was never checked, so it may carry characters
 * that change how the page reads (right-to-left overrides, control characters, invisible ones).
 * Each is made visible as its code point, such as `[U+202E]`.
 */

/** C0 and C1 controls but tab and line feed, DEL, zero-width and bidirectional formatting characters, line and paragraph separators, the BOM. */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/** `text` with every character that could hide or reorder what is around it written out as `[U+XXXX]`. */
export function visible(text: string): string {
  return text.replace(HIDDEN, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}
