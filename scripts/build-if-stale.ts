/**
 * `next build` only when a source is newer than the last build (bench/build.ts ensureBuild, which
 * the bench and the built-app tests use too, under one lock). `npm test` runs the browser suite
 * after the Vitest suite, whose built-app tests have often just built: the old unconditional
 * `next build` repeated that work, once per pass of `.ci/run` (minutes each).
 */
import { ensureBuild } from "@/bench/build";

console.log(`next build: ${ensureBuild(false) === "fresh" ? "the last build is newer than every source, reused" : "built"}`);
