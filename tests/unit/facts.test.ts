/**
 * Each fact the service enforces is stated once, in `src/service-facts.ts`: every text that mentions
 * it (pages, the OpenAPI source, llms.txt, the problem registry, the handlers' messages) names it
 * instead of copying it, so that changing the constant changes them all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../src/http/routes.ts';
import { openapi } from '../support/openapi.ts';
import { API_PATHS, FACTS } from '../../src/service-facts.ts';
import { ROOT } from '../support/server.ts';

/** Copies of a fact, as a text would write them. */
const COPIES: Array<[string, RegExp]> = [
  ['the body limit', /20[,_]?000/],
  ['the rate-limit policy', /\d+;w=\d+/],
  ['the rate limit', /\b10 (lead )?submissions|per minute|within (one|a) minute/],
  ['the replay window', /24[ -]hours?/],
  ['the notice period', /\b365\b/],
  ["the service's name", /Lead Intake API/],
  ['an API path', /\/api\/(v1|leads)\b/],
];

/** The files whose words reach callers and readers, and the lines of each that are definitions, not texts. */
function texts(): Array<{ file: string; lines: string[] }> {
  const files = [
    ...['content', 'src/components', 'src/layouts', 'src/pages', 'src/discovery', 'src/problems', 'src/http']
      .flatMap((dir) => readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => join(ROOT, dir, f)))
      .filter((f) => /\.(mdx|astro|ts)$/.test(f)),
    join(ROOT, 'spec/openapi.yaml'),
  ];
  return files.map((file) => {
    let lines = readFileSync(file, 'utf8').split('\n');
    // OpenAPI's path keys are the paths' definition in the description (held to the route table below); comments are not published.
    if (file.endsWith('.yaml')) lines = lines.filter((l) => !/^ {2}\/api/.test(l) && !/^\s*#/.test(l));
    // Code comments are for developers; the texts are in strings.
    if (file.endsWith('.ts')) lines = lines.filter((l) => !/^\s*(\*|\/\/|\/\*\*)/.test(l));
    return { file: relative(ROOT, file), lines };
  });
}

describe('each fact stated once', () => {
  it('no page, document source, message or component copies a fact instead of naming it', () => {
    const copies: string[] = [];
    for (const { file, lines } of texts()) {
      lines.forEach((line, i) => {
        for (const [what, pattern] of COPIES) if (pattern.test(line)) copies.push(`${file}:${i + 1} copies ${what}: ${line.trim()}`);
      });
    }
    expect(copies).toEqual([]);
  });

  it("the OpenAPI description's API paths are the route table's", () => {
    const described = Object.keys(openapi.paths).filter((p) => p.startsWith('/api'));
    expect(described.sort()).toEqual(API_ROUTES.map((r) => r.path).sort());
    expect(Object.values(API_PATHS).sort()).toEqual(API_ROUTES.map((r) => r.path).sort());
  });

  it('every fact named in the published texts has its value there', () => {
    const doc = JSON.stringify(openapi);
    expect(doc).not.toMatch(/\{\{\w+\}\}/);
    for (const name of ['maxBodyBytes', 'rateLimitPolicy', 'replayWindow', 'sunsetNoticeDays', 'leadsPath'] as const) expect(doc, name).toContain(FACTS[name]);
  });
});
