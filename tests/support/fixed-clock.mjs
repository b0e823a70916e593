/**
 * Loaded before anything else (`NODE_OPTIONS=--import=<this file>`) into a server that a test draws
 * the guides' pictures from: the process's clock reads `TEST_CLOCK_START` (an ISO instant), still
 * with `TEST_CLOCK_FROZEN=1` (every date, weekday and "minutes ago" a picture shows is the same on
 * every run), else running on from it at the real pace (for a dev server, whose reloads need time
 * to pass). Timers are left alone. Plain JavaScript: npm's own Node reads NODE_OPTIONS too.
 */
const start = process.env.TEST_CLOCK_START;
if (start) {
  const RealDate = Date;
  const offset = RealDate.parse(start) - RealDate.now();
  if (Number.isNaN(offset)) throw new Error(`TEST_CLOCK_START is not an instant: ${start}`);
  const frozen = process.env.TEST_CLOCK_FROZEN === '1';
  const now = () => (frozen ? RealDate.parse(start) : RealDate.now() + offset);
  class TestDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = TestDate;
}
