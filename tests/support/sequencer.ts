/**
 * The order the test files start in. Two at a time on two cores, the whole run lasts as long as its
 * last file: a long file started last runs alone at the end while the other core waits. Vitest starts
 * the longest first when it has timed them before (its cache in node_modules/.vite); on a clean clone
 * (CI) it has not, and starts the largest files first, which are not the longest. There, the files
 * below, the longest of a run (the closing lines of `npm test` list the ten slowest), start first.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST_FIRST = [
  'tests/static/bench.test.ts',
  'tests/e2e/office.test.ts',
  'tests/static/lint.test.ts',
  'tests/e2e/quick-start.test.ts',
  'tests/e2e/office-mail.test.ts',
  'tests/e2e/form-endpoints.test.ts',
  'tests/e2e/framing.test.ts',
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timedBefore = sorted.some((spec) => this.ctx.cache.getTestSpecificationResult(spec));
    if (timedBefore) return sorted;
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // Stable: within a project, the long files first, the rest as Vitest ordered them.
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => (a.spec.project.name === b.spec.project.name ? rank(a.spec) - rank(b.spec) || a.index - b.index : a.index - b.index))
      .map(({ spec }) => spec);
  }
}
