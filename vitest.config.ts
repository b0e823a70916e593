import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A timeout catches a hang, not a slow machine: a test that takes 10 s on a quiet machine can take
    // several times that on a busy one (`npm run test:busy`), and must still pass there.
    testTimeout: 600_000,
    hookTimeout: 900_000,
    // expect.poll waits for something to happen, as long as a busy machine takes (its default is 1 s).
    expect: { poll: { timeout: 60_000 } },
    // Two cores: one suite's server and another's client at a time.
    maxWorkers: 2,
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      // The domain, the stores and the HTTP contracts in process: no build, no server (`npm run test:unit`).
      // One module graph a worker (isolate: false): the files share what they import instead of loading
      // the composition, Astro's container and Vite again each; a third of the quick tests' CPU went there.
      // No file keeps state in a module between its tests (none mocks a module or the environment).
      { extends: true, test: { name: 'unit', isolate: false, include: ['tests/unit/**/*.test.ts', 'tests/http/**/*.test.ts'] } },
      // What needs the built site or a process: the site is built once, then each suite starts the built server.
      {
        extends: true,
        test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts', 'tests/static/**/*.test.ts'], globalSetup: ['tests/support/global-setup.ts'] },
      },
    ],
  },
});
