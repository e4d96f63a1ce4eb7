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
    // Pages and components talk to the API, never to the database.
    files: ["app/**/*.tsx", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["drizzle-orm", "drizzle-orm/*", "@/db/*"] }],
    },
  },
  {
    // The data layer knows no services: db/ may read the settings module, nothing else of lib/.
    files: ["db/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/lib/*", "!@/lib/config", "../lib/*", "../../lib/*"], message: "db/ may import only @/lib/config from lib/." }] },
      ],
    },
  },
);
