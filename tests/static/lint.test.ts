/** Static checks that belong to the suite: the OpenAPI description lints clean, the code type-checks, lints clean and is formatted. */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { childEnv, ROOT } from '../support/server.ts';
import { loadConfig } from '../../src/config/config.ts';
import { fillConfigured } from '../../src/site/configured-values.ts';

const run = promisify(execFile);
const env = { ...childEnv(), REDOCLY_TELEMETRY: 'off', ASTRO_TELEMETRY_DISABLED: '1', SCARF_ANALYTICS: 'false' };

describe('static checks', () => {
  // What agents read: the built /openapi.json, as a production deployment serves it (on its https
  // origin, its configured values in place, as the server puts them at start-up).
  const file = 'dist/lint/openapi.json';
  beforeAll(() => {
    mkdirSync(`${ROOT}dist/lint`, { recursive: true });
    const built = readFileSync(`${ROOT}dist/client/openapi.json`, 'utf8');
    const production = loadConfig({ SITE_URL: 'https://www.example-cleaning.com' });
    writeFileSync(`${ROOT}${file}`, fillConfigured(built.replaceAll('http://localhost:4321', production.siteUrl), production));
  });

  it('the published OpenAPI description passes redocly lint (recommended ruleset) with no warning', async () => {
    const { stdout, stderr } = await run('npx', ['--no-install', 'redocly', 'lint', file, '--format=stylish'], { cwd: ROOT, env });
    expect(`${stdout}${stderr}`).toMatch(/Your API description is valid/);
    expect(`${stdout}${stderr}`).not.toMatch(/warning/);
  });

  it('the published OpenAPI description passes Spectral with the OWASP API Security ruleset, with no warning', async () => {
    const { stdout } = await run('npx', ['--no-install', 'spectral', 'lint', file, '--fail-severity=warn', '--ruleset', '.spectral.yaml'], { cwd: ROOT, env });
    expect(stdout).toMatch(/No results with a severity of 'warn' or higher found!|^No results/m);
  });

  it('astro check (every .astro and .ts file, as tsc would) reports no errors', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'check'], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).toMatch(/(?<!\d)0 errors/);
  });

  it('eslint finds nothing and every file is formatted as prettier formats it (npm run lint)', async () => {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'lint'], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
    expect(`${stdout}${stderr}`).toMatch(/All matched files use Prettier code style!/);
  });
});
