import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * The scale pass (scripts/test-scale.sh): the API suite, the event-stream tests (LISTEN, the event
 * tail), the delivery worker's (claims and leases through the pooler), the inbox's and tests/scale
 * run once more through PgBouncer with a read replica, in under two minutes on the 2-core CI
 * machine. Only that script runs this config: tests/scale need its clusters, so the ordinary
 * suite excludes them.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      "tests/api/**/*.test.ts",
      "tests/events/**/*.test.ts",
      "tests/delivery/**/*.test.ts",
      "tests/conversations/**/*.test.ts",
      "tests/scale/**/*.test.ts",
    ],
    // The first-run set-up needs a database without any team, which it makes beside the suite's
    // own on a server (tests/global-setup.ts); the pass's pooler and replica serve only the
    // suite's database. The set-up runs in both passes of `npm test` (PGlite and PostgreSQL).
    exclude: [...configDefaults.exclude, "tests/api/setup.test.ts"],
  },
});
