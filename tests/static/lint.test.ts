/** Static checks that belong to the suite: the OpenAPI description lints clean, and the code type-checks. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const run = promisify(execFile);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', ASTRO_TELEMETRY_DISABLED: '1', SCARF_ANALYTICS: 'false' };

describe('static checks', () => {
  it('spec/openapi.yaml passes redocly lint (recommended ruleset)', async () => {
    const { stdout, stderr } = await run('npx', ['--no-install', 'redocly', 'lint', '--format=stylish'], { cwd: ROOT, env });
    expect(`${stdout}${stderr}`).toMatch(/Your API description is valid/);
  }, 120_000);

  it('spec/openapi.yaml passes Spectral with the OWASP API Security ruleset (no errors)', async () => {
    const { stdout } = await run('npx', ['--no-install', 'spectral', 'lint', 'spec/openapi.yaml', '--fail-severity=error', '--ruleset', '.spectral.yaml'], { cwd: ROOT, env });
    expect(stdout).toMatch(/(?<!\d)0 errors|No results/);
  }, 120_000);

  it('astro check and tsc --noEmit report no errors', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'check'], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).toMatch(/(?<!\d)0 errors/);
  }, 300_000);
});
