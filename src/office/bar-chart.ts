/**
 * The office's charts' bars, laid out for an SVG drawn on the server (no script): one bar a week,
 * stacked from its parts from the bottom up, scaled so that the tallest reaches the top. The leads
 * per week and the promise chart draw theirs with it, in the same colours.
 */

/** Colours told apart by most eyes (Okabe and Ito): blue, orange, green, pink, sky blue, vermillion, yellow. */
export const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442'] as const;

/** One part of a bar: where it is drawn, which part it is (its place in the stack) and its value. */
export interface BarPart {
  x: number;
  y: number;
  w: number;
  h: number;
  part: number;
  n: number;
}

/** One bar: its place, its middle (for its labels), its top, and its parts (none for nothing). */
export interface Bar {
  i: number;
  centre: number;
  top: number;
  parts: BarPart[];
}

/**
 * Bars for `stacks` (each the values of one bar's parts) across `width`, from `bottom` up to `top`
 * for the tallest (or for `max`, when given); each bar 70% of its slot, centred.
 */
export function stackedBars(stacks: ReadonlyArray<readonly number[]>, width: number, top: number, bottom: number, max?: number): { slot: number; bars: Bar[] } {
  const slot = width / Math.max(1, stacks.length);
  const tallest = max ?? Math.max(1, ...stacks.map((s) => s.reduce((a, b) => a + b, 0)));
  const scale = (n: number) => (n / tallest) * (bottom - top);
  const bars = stacks.map((stack, i) => {
    let y = bottom;
    const parts = stack.flatMap((n, part) => {
      if (n === 0) return [];
      const h = scale(n);
      y -= h;
      return [{ x: i * slot + slot * 0.15, y, w: slot * 0.7, h, part, n }];
    });
    return { i, centre: i * slot + slot / 2, top: y, parts };
  });
  return { slot, bars };
}

/** The name under one bar of a week: the day of its Monday ("23"), and the month's ("Nov") under the first bar and each that starts a month. */
export interface WeekAxisLabel {
  day: string;
  month: string | undefined;
}

/**
 * Every bar named under the axis, from the weeks' Mondays (`YYYY-MM-DD`, oldest first): the day of
 * the month under each, short enough for every bar to have its own, and the month on a second line
 * where it starts (and under the first bar), as a calendar prints them.
 */
export function weekAxisLabels(mondays: readonly string[]): WeekAxisLabel[] {
  return mondays.map((monday, i) => ({
    day: String(Number(monday.slice(8, 10))),
    month:
      i === 0 || monday.slice(0, 7) !== mondays[i - 1]!.slice(0, 7)
        ? new Date(`${monday}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' })
        : undefined,
  }));
}
