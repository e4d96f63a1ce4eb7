import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// Server modules import "server-only", which throws unless resolved with the react-server export
// condition, as Next resolves it for route handlers and server components.
// The rest is Vite's default for server code.
const serverConditions = ["react-server", "module", "node", "development|production"];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  ssr: { resolve: { conditions: serverConditions, externalConditions: ["react-server"] } },
  test: {
    include: ["tests/**/*.test.ts", "lib/**/*.test.ts"],
    // tests/scale need the clusters scripts/test-scale.sh starts; only vitest.scale.config.ts runs them.
    exclude: [...configDefaults.exclude, "tests/scale/**"],
    setupFiles: ["tests/setup.ts"],
    globalSetup: ["tests/global-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite boots in ~1 s per worker; two cores, two workers.
    maxWorkers: 2,
  },
});
