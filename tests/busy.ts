/**
 * `npm run test:busy`: the suite on a busy machine, as CI's often is. Two processes spin a core each
 * at 100% for as long as it runs, and the suite runs twice in a row; any failure fails the whole.
 * `npm run test:busy -- test:unit` does the same with the quick tests (any npm script). Never part
 * of `npm test` or `.ci/run`: it proves that no test races the machine, and takes twice the suite's time.
 */
import { spawn, spawnSync } from 'node:child_process';

const script = process.argv[2] ?? 'test';
const RUNS = 2;

// A core each, kept at 100% until the runs end.
const spinners = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stop = () => spinners.forEach((s) => s.kill('SIGKILL'));
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (stop(), process.exit(130)));

const results: string[] = [];
let failed = false;
for (let run = 1; run <= RUNS; run++) {
  const started = Date.now();
  const { status } = spawnSync('npm', ['run', script], { stdio: 'inherit' });
  const seconds = Math.round((Date.now() - started) / 1000);
  results.push(`run ${run} of ${RUNS}: npm run ${script} ${status === 0 ? 'passed' : `failed (exit ${status})`} in ${seconds} s`);
  failed ||= status !== 0;
}
stop();
process.stdout.write(`\ntest:busy, with two cores kept at 100%:\n${results.map((r) => `  ${r}`).join('\n')}\n`);
process.exit(failed ? 1 : 0);
