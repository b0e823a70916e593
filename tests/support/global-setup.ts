/** Builds the site once before the suites run, so that every end-to-end test speaks to the built server. */
import { execFileSync } from 'node:child_process';
import { childEnv } from './server.ts';

export default function setup(): void {
  if (process.env.TEST_REUSE_BUILD === '1') return;
  execFileSync('npm', ['run', '--silent', 'build'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    // The build a deployment makes, not in the test runner's mode.
    env: { ...childEnv(), ASTRO_TELEMETRY_DISABLED: '1', SITE_URL: '', LEADS_SUNSET_DATE: '' },
  });
}
