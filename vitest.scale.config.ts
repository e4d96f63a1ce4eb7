import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * The scale pass (scripts/test-scale.sh): the API suite, the event-stream tests (LISTEN, the event
 * tail) and tests/scale run once more through PgBouncer with a read replica. Only that script
 * runs this config: tests/scale need its clusters, so the ordinary suite excludes them.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["tests/api/**/*.test.ts", "tests/events/**/*.test.ts", "tests/scale/**/*.test.ts"],
    exclude: configDefaults.exclude,
  },
});
