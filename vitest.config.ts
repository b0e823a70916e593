import { accessSync, constants } from 'node:fs';
import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/support/sequencer.ts';

/** TMPDIR in memory for the quick tests, where the machine has a writable /dev/shm (Linux). */
function memoryScratch(): Record<string, string> {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return { TMPDIR: '/dev/shm' };
  } catch {
    return {};
  }
}

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
    // The longest files start first, also on a clean clone, so that none runs alone at the end.
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      // The domain, the stores and the HTTP contracts in process: no build, no server (`npm run test:unit`).
      // One module graph a worker (isolate: false): the files share what they import instead of loading
      // the composition, Astro's container and Vite again each; a third of the quick tests' CPU went there.
      // No file keeps state in a module between its tests (none mocks a module or the environment).
      // Their scratch stores go to memory where the machine has it (/dev/shm): the stores still ask the disk
      // to keep each commit (synchronous=FULL), which costs nothing there; durability itself is the e2e's.
      {
        extends: true,
        test: { name: 'unit', isolate: false, include: ['tests/unit/**/*.test.ts', 'tests/http/**/*.test.ts'], env: memoryScratch() },
      },
      // What needs the built site or a process: the site is built once, then each suite starts the built server.
      {
        extends: true,
        test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts', 'tests/static/**/*.test.ts'], globalSetup: ['tests/support/global-setup.ts'] },
      },
    ],
  },
});
