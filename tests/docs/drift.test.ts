import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Docs that cannot drift: every repository path that a comment or a Markdown file names exists,
 * the README's map names every `lib/` folder, the two READMEs stay short enough to be read, and
 * nothing cites a brief that is not in the repository (an issue number, the team's design notes).
 * Markdown links must lead to a file and, when they name one, a heading. Reads files only (no
 * database, no server): a few hundred milliseconds.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Top-level folders whose paths are checked when a text names them. */
const TOP = ["app", "lib", "db", "docs", "tests", "e2e", "scripts", "bench", "components"];

/** Folders never read: dependencies, build output, local data. */
const SKIP_DIRS = new Set(["node_modules", ".git", ".next", ".data", "out", "coverage", "test-results", "playwright-report"]);

/** Paths made by running things (git-ignored), so absent from a fresh checkout. */
const GENERATED = ["e2e/screenshots", "bench/results"];

const SCANNED = /\.(ts|tsx|mjs|sql|md|sh)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (SCANNED.test(entry.name)) out.push(full);
  }
  return out;
}

const files = [...walk(ROOT), path.join(ROOT, ".ci/run")].map((full) => ({
  rel: path.relative(ROOT, full).split(path.sep).join("/"),
  text: readFileSync(full, "utf8"),
}));

/**
 * A path is a token that starts with a top-level folder and a slash, at the start of a word (not
 * inside a URL or an import alias such as `@/lib/…`), made of path characters. A token followed
 * by a placeholder (`lib/<domain>/`, `bench/log/YYYY-…`, `app/api/v1/**`, `docs/…`) is a pattern,
 * not a path, and is left alone. A token counts if it ends in an extension or is a folder.
 */
const PATH = new RegExp(`(?<![\\w./@~-])(?:${TOP.join("|")})/[\\w.\\-\\[\\]()/]*`, "g");
const PLACEHOLDER = /^[<*{…$]|^YYYY|^\.\.\./;

function namedPaths(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(PATH)) {
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 4);
    if (PLACEHOLDER.test(after)) continue;
    // A Markdown link's text and target run together (`[lib/config.ts](lib/config.ts)`): keep the text.
    let token = match[0].split("](")[0].replace(/[.,]+$/, "");
    // A closing parenthesis belongs to the path only when the path opened it: `app/(dashboard)`.
    while (token.endsWith(")") && (token.match(/\(/g) ?? []).length < (token.match(/\)/g) ?? []).length) {
      token = token.slice(0, -1).replace(/[.,]+$/, "");
    }
    if (/\[\w*$/.test(token)) continue; // cut inside a dynamic segment, e.g. a regex in code
    found.push(token);
  }
  return found;
}

function exists(rel: string): boolean {
  const clean = rel.replace(/\/+$/, "");
  if (GENERATED.some((g) => clean === g || clean.startsWith(`${g}/`))) return true;
  const full = path.join(ROOT, clean);
  if (!existsSync(full)) return false;
  // Without an extension the name must be a folder ("lib/messages"), not a guess at a module.
  return /\.\w+$/.test(clean) || statSync(full).isDirectory();
}

/** Relative links of Markdown files (`[text](../docs/x.md#part)`), resolved from the file's folder. */
function markdownLinks(rel: string, text: string): { target: string; anchor: string | undefined }[] {
  const out: { target: string; anchor: string | undefined }[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const [file, anchor] = match[1].split("#");
    if (/^[a-z]+:/i.test(file) || file.startsWith("/")) continue;
    const target = file ? path.posix.normalize(path.posix.join(path.posix.dirname(rel), file)) : rel;
    out.push({ target, anchor });
  }
  return out;
}

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as `-`. */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6} +(.+)$/gm)) {
    anchors.add(
      match[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    );
  }
  return anchors;
}

describe("docs and comments name what exists", () => {
  it("every repository path named in a comment or a Markdown file exists, and every link lands", () => {
    const missing: string[] = [];
    for (const { rel, text } of files) {
      if (rel.startsWith("bench/log/")) continue; // a dated log tells what was, files since renamed included
      for (const named of namedPaths(text)) if (!exists(named)) missing.push(`${rel}: ${named}`);
      if (rel.endsWith(".md")) {
        for (const { target, anchor } of markdownLinks(rel, text)) {
          const full = path.join(ROOT, target);
          if (!existsSync(full)) missing.push(`${rel}: link ${target}`);
          else if (anchor && target.endsWith(".md") && !headingAnchors(readFileSync(full, "utf8")).has(anchor)) {
            missing.push(`${rel}: link ${target}#${anchor}`);
          }
        }
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it("the README's map names every lib/ folder", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const folders = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    const unnamed = folders.filter((name) => !new RegExp(`(^|[\\s\`(/])lib/${name}/`, "m").test(readme));
    expect(unnamed).toEqual([]);
  });

  it("docs/features/README.md lists every page of its folder", () => {
    const dir = path.join(ROOT, "docs/features");
    const index = readFileSync(path.join(dir, "README.md"), "utf8");
    const unlisted = readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md" && !index.includes(`](${f})`));
    expect(unlisted).toEqual([]);
  });

  it("README.md stays under 12 KB and bench/README.md under 15 KB", () => {
    expect(statSync(path.join(ROOT, "README.md")).size).toBeLessThanOrEqual(12 * 1024);
    expect(statSync(path.join(ROOT, "bench/README.md")).size).toBeLessThanOrEqual(15 * 1024);
  });

  it("nothing cites an issue number or the team's design notes: docs/ is the reference", () => {
    const cites: string[] = [];
    for (const { rel, text } of files) {
      if (rel === "tests/docs/drift.test.ts") continue; // names the patterns it forbids
      text.split("\n").forEach((line, i) => {
        if (/\bDESIGN\b/.test(line) || /\bissues? #?\d+/i.test(line)) cites.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(cites).toEqual([]);
  });
});
