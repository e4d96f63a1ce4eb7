import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";

/**
 * `next start` on a shared database without APP_ENCRYPTION_KEY must refuse to start (each host
 * would otherwise invent its own key). The check runs before anything connects, so the database
 * URL here need not answer.
 */
test("a production server on DATABASE_URL without APP_ENCRYPTION_KEY refuses to start, naming it", async () => {
  test.setTimeout(90_000);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: "postgres://nobody:hunter2-secret@127.0.0.1:9/none",
  } as NodeJS.ProcessEnv;
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", "0"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d));
  child.stderr.on("data", (d: Buffer) => (output += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 60_000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  expect(output).toContain("APP_ENCRYPTION_KEY: es obligatoria en producción con DATABASE_URL");
  expect(output).not.toContain("hunter2-secret");
  expect(code).not.toBe(0);
  expect(code).not.toBeNull();
});
