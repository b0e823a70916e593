/**
 * The quick tests validate against the description made in process (`tests/support/openapi.ts`),
 * with no build: it must be, byte for byte, the `/openapi.json` the build writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openapi } from '../support/openapi.ts';
import { ROOT } from '../support/server.ts';

describe('the description the quick tests use', () => {
  it('is the one the build publishes', () => {
    const built = readFileSync(join(ROOT, 'dist/client/openapi.json'), 'utf8');
    expect(JSON.stringify(openapi, null, 2)).toBe(built);
  });
});
