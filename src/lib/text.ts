/** Words as the service writes them for people: pure, usable everywhere. */

/** `n` and the word for `n` things: "1 lead", "3 leads" (`many` for an irregular plural). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
