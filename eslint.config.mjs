import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  { ignores: ["node_modules", ".next", ".data", "db/migrations", "next-env.d.ts", "bench/results", "test-results", "playwright-report"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    // Tests read loosely typed JSON answers.
    files: ["tests/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Pages and components talk to the API, never to the database nor to the services and repos
    // behind it (those also import "server-only", so a client bundle that reached one would fail).
    files: ["app/**/*.tsx", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["drizzle-orm", "drizzle-orm/*", "@/db/*"],
              message: "Pages and components use /api/v1 (lib/api-client), not the database.",
            },
            {
              group: ["@/lib/*/service", "@/lib/*/repo", "@/lib/*/*-service", "@/lib/*/*-repo"],
              message: "Pages and components use /api/v1 (lib/api-client), not services or repos.",
            },
          ],
        },
      ],
    },
  },
  {
    // One way to reach the database: every repo function takes its handle first, `fn(db, ...)` (a
    // transaction is a `db`), and the service obtains it (getDb, withReadDb for replica reads,
    // transaction), so a repo never picks its connection nor opens a transaction itself.
    files: ["lib/**/repo.ts", "lib/**/*-repo.ts", "lib/**/repo-*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@/db/client",
              importNames: ["getDb", "getHandle", "withReadDb", "readFrom", "transaction"],
              message: "A repo function takes the handle as its first parameter, fn(db, ...); the service obtains it.",
            },
          ],
        },
      ],
    },
  },
  {
    // The data layer knows no services: db/ may read the settings module, nothing else of lib/.
    files: ["db/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/lib/*", "!@/lib/config", "../lib/*", "../../lib/*"], message: "db/ may import only @/lib/config from lib/." },
          ],
        },
      ],
    },
  },
);
