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
    // No fixed waits in tests: a test waits on a condition (tests/helpers/wait.ts), an event or a
    // hook (a worker's nextPoll, the event tail's nextTailRead), fake timers (vi.useFakeTimers) or
    // Playwright's page.clock. A sleep passes on a quiet machine and flakes on a loaded one, and
    // hides the race it papers over. The few real delays that are the behaviour under test live in
    // the helpers, named and explained.
    files: ["tests/**/*.ts", "e2e/**/*.ts", "lib/**/*.test.ts"],
    ignores: ["tests/helpers/**", "e2e/helpers.ts", "e2e/helpers/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          property: "waitForTimeout",
          message: "No fixed waits: wait for a visible state (expect(...).toBeVisible, waitForResponse) or use page.clock.",
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout'][arguments.0.type='Identifier']",
          message: "No fixed waits: wait for a condition (tests/helpers/wait.ts), an event or a hook, or use vi.useFakeTimers().",
        },
        {
          selector:
            "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout'] > ArrowFunctionExpression:first-child > CallExpression.body[arguments.length=0]",
          message: "No fixed waits: wait for a condition (tests/helpers/wait.ts), an event or a hook, or use vi.useFakeTimers().",
        },
        {
          selector: "CallExpression[callee.name='sleep']",
          message: "No fixed waits: wait for a condition (tests/helpers/wait.ts), an event or a hook, or use vi.useFakeTimers().",
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "node:timers/promises", message: "No fixed waits: wait for a condition, an event or a hook, or use fake timers." },
            { name: "timers/promises", message: "No fixed waits: wait for a condition, an event or a hook, or use fake timers." },
          ],
        },
      ],
    },
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
      // fn(db, params): the handle and one value or one object of named fields (docs/architecture.md).
      "max-params": ["error", 2],
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
