/**
 * The office benchmark's chart: each operation's median time against the store's size, both axes
 * logarithmic, one line per operation; a line as steep as the dashed one costs in proportion to the
 * store (reads every row), a flat one does not. Plain SVG, no library.
 */
import type { StoreFigures } from './measure.ts';
import { OPERATIONS, OVERVIEW, PROMISE } from './measure.ts';

const COLOURS = [
  '#1b6ca8',
  '#4f9d2d',
  '#c0392b',
  '#8e44ad',
  '#d35400',
  '#16a085',
  '#7f8c8d',
  '#b8860b',
  '#e377c2',
  '#17becf',
  '#2c3e50',
  '#6b8e23',
  '#a0522d',
  '#4682b4',
];
const W = 900;
const H = 480;
const PAD = { left: 70, right: 330, top: 50, bottom: 60 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const log = Math.log10;

export function officeChart(figures: StoreFigures[], at: Date): string {
  const series = [
    ...OPERATIONS.map((op) => ({ name: op, points: figures.map((f) => [f.leads, f.medianMs[op]] as const) })),
    ...OVERVIEW.map((op) => ({ name: op, points: figures.map((f) => [f.leads, f.overviewMs[op]] as const) })),
    ...PROMISE.map((op) => ({ name: op, points: figures.map((f) => [f.leads, f.promiseMs[op]] as const) })),
    { name: 'CSV export of everything', points: figures.map((f) => [f.leads, f.export.medianMs] as const) },
  ];
  const xs = figures.map((f) => f.leads);
  const ys = series.flatMap((s) => s.points.map(([, y]) => Math.max(y, 0.1)));
  const [x0, x1] = [log(Math.min(...xs)), log(Math.max(...xs))];
  const [y0, y1] = [Math.floor(log(Math.min(...ys))), Math.ceil(log(Math.max(...ys)))];
  const px = (x: number) => PAD.left + ((log(x) - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - ((log(Math.max(y, 0.1)) - y0) / (y1 - y0 || 1)) * (H - PAD.top - PAD.bottom);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${PAD.left}" y="24" font-size="15" font-weight="bold">The office's operations against the store's size (median ms, log–log)</text>`,
    `<text x="${PAD.left}" y="40" fill="#555">npm run bench -- --office, ${esc(at.toISOString().slice(0, 16).replace('T', ' '))} UTC; caught submissions a tenth of the leads</text>`,
  ];
  for (let e = y0; e <= y1; e++) {
    const y = py(10 ** e);
    out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${PAD.left - 8}" y="${y + 4}" text-anchor="end">${10 ** e >= 1 ? (10 ** e).toLocaleString('en-US') : 10 ** e} ms</text>`);
  }
  for (const x of xs) {
    const X = px(x);
    out.push(`<line x1="${X}" x2="${X}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#ddd"/>`);
    out.push(`<text x="${X}" y="${H - PAD.bottom + 18}" text-anchor="middle">${x.toLocaleString('en-US')} leads</text>`);
  }
  // Proportional to the store: ten times the rows, ten times the time.
  const first = series[0]!.points[0]!;
  const [ax, ay] = [xs[0]!, Math.max(first[1], 0.1)];
  out.push(
    `<line x1="${px(ax)}" y1="${py(ay)}" x2="${px(xs.at(-1)!)}" y2="${py((ay * xs.at(-1)!) / ax)}" stroke="#999" stroke-dasharray="5 4"/>`,
    `<text x="${px(xs.at(-1)!) - 4}" y="${py((ay * xs.at(-1)!) / ax) - 6}" text-anchor="end" fill="#777">proportional to the store</text>`,
  );
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const d = s.points.map(([x, y], k) => `${k ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    out.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const [x, y] of s.points) out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${colour}"/>`);
    const last = s.points.at(-1)!;
    const prev = s.points.at(-2) ?? last;
    const ly = PAD.top + 10 + i * 22;
    out.push(`<line x1="${W - PAD.right + 16}" x2="${W - PAD.right + 36}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="3"/>`);
    out.push(`<text x="${W - PAD.right + 42}" y="${ly}">${esc(s.name)}: ×${(last[1] / Math.max(prev[1], 0.01)).toFixed(1)}</text>`);
  });
  out.push(
    `<text x="${W - PAD.right + 16}" y="${PAD.top + 10 + series.length * 22 + 8}" fill="#555">×: the largest store against the one before</text>`,
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 16}" text-anchor="middle" fill="#555">leads in the store (log)</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
