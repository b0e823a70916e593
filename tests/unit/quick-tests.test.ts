/**
 * The quick tests (`npm run test:unit`: tests/unit and tests/http) need no build and start no server:
 * they run on a clean clone before anything is built, and CI runs them once, inside `npm test`, after
 * the faults (which run them on copies of the project that hold no build). So no quick test may read
 * the build's files or start the built server, the dev server, nginx or a browser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const QUICK = ['tests/unit', 'tests/http']
  .flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `${dir}/${file}`),
  )
  .filter((file) => file !== 'tests/unit/quick-tests.test.ts');

/** What only a build or a process gives, as a quick test would have to write it. */
const NEEDS_A_BUILD = [
  { what: 'the built server', pattern: /\bstart(?:Dev)?Server\(/ },
  { what: 'the build’s files', pattern: /['"`/]dist\/(?!2020\.js)/ },
  { what: 'the built files’ codings', pattern: /support\/codings\.ts/ },
  { what: 'a browser', pattern: /support\/browser\.ts|playwright/ },
  { what: 'nginx', pattern: /support\/nginx\.ts/ },
];

describe('the quick tests need no build', () => {
  it('are found where vitest.config.ts looks for them', () => {
    expect(QUICK.length).toBeGreaterThan(40);
    expect(readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8')).toContain("include: ['tests/unit/**/*.test.ts', 'tests/http/**/*.test.ts']");
  });

  it('none reads the build or starts a server, nginx or a browser', () => {
    const found = QUICK.flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/ajv\/dist\//g, '');
      return NEEDS_A_BUILD.filter(({ pattern }) => pattern.test(text)).map(({ what }) => `${file}: ${what}`);
    });
    expect(found).toEqual([]);
  });
});
