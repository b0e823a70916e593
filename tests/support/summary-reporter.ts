/**
 * Prints the ten slowest test files with their wall time (what to look at first when the suite grows
 * slow), then one plain closing line, `N passed, N failed, N skipped`, that CI tooling can read.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    const slowest = [...testModules].sort((a, b) => b.diagnostic().duration - a.diagnostic().duration).slice(0, 10);
    if (slowest.length > 1) {
      process.stdout.write('\nThe slowest files (wall time, two at a time):\n');
      for (const mod of slowest) process.stdout.write(`${(mod.diagnostic().duration / 1000).toFixed(1).padStart(7)} s  ${mod.relativeModuleId}\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
