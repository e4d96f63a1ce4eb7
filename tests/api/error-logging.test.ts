import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { createLabel, createTeam } from "../helpers/factories";
import { getDb } from "@/db/client";

/**
 * A 500 used to print the error with the query's bound
 * parameters (drizzle's "params: …"), so whole request bodies and uploaded files reached the log.
 * The failure here is real: a trigger makes Postgres itself refuse the write.
 */
let server: TestServer;
const MARK = "boom-log-test";
beforeAll(async () => {
  server = await startServer();
  const db = await getDb();
  await db.execute(
    sql.raw(`
    CREATE OR REPLACE FUNCTION test_refuse_label() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'refused by the test trigger'; END $$`),
  );
  await db.execute(
    sql.raw(`
    CREATE TRIGGER test_refuse_label BEFORE INSERT OR UPDATE ON labels
      FOR EACH ROW WHEN (NEW.title = '${MARK}') EXECUTE FUNCTION test_refuse_label();`),
  );
});
afterAll(async () => {
  const db = await getDb();
  await db.execute(sql.raw("DROP TRIGGER IF EXISTS test_refuse_label ON labels"));
  await db.execute(sql.raw("DROP FUNCTION IF EXISTS test_refuse_label()"));
  await server.close();
});

let logged: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  logged = [];
});
function captureConsole() {
  const keep = (...args: unknown[]) => {
    logged.push(
      args
        .map((a) =>
          typeof a === "string"
            ? a
            : a instanceof Error
              ? `${a.stack} ${String((a as { cause?: unknown }).cause)}`
              : (JSON.stringify(a) ?? String(a)),
        )
        .join(" "),
    );
  };
  for (const level of ["error", "warn", "log", "info", "debug"] as const) vi.spyOn(console, level).mockImplementation(keep);
}

describe("an unexpected error (500)", () => {
  it("logs its request id, route pattern and error, never the body, query values or token; answers the id", async () => {
    const team = await createTeam();
    const secretBody = `BODY-SECRET-${"x".repeat(400)}`;
    const secretQuery = "QUERY-SECRET-42";
    captureConsole();
    const res = await fetch(`${server.url}/api/v1/contacts/labels?note=${secretQuery}`, {
      method: "POST",
      headers: { authorization: `Bearer ${team.token}`, "content-type": "application/json" },
      // A large body: the description reaches the failing INSERT as a bound parameter.
      body: JSON.stringify({
        title: MARK,
        description: secretBody,
        bg_color: "#000000",
        text_color: "#ffffff",
        padding: "p".repeat(200_000),
      }),
    });
    const body = await res.json();
    vi.restoreAllMocks();
    expect(res.status).toBe(500);
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toEqual({ message: "Error interno del servidor.", request_id: id });

    const all = logged.join("\n");
    expect(all).toContain(id);
    expect(all).toContain("POST /api/v1/contacts/labels");
    expect(all).toContain("refused by the test trigger");
    expect(all).not.toContain("BODY-SECRET");
    expect(all).not.toContain("xxxxxxxxxx");
    expect(all).not.toContain(secretQuery);
    expect(all).not.toContain(team.token);
    expect(all).not.toContain(MARK);
    expect(all.length).toBeLessThan(8_000);
  });

  it("names a dynamic route by its pattern, not by the ids in its path", async () => {
    const team = await createTeam();
    const label = await createLabel(team.id);
    captureConsole();
    const res = await fetch(`${server.url}/api/v1/contacts/labels/${label.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${team.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: MARK, description: "PATCH-SECRET" }),
    });
    await res.text();
    vi.restoreAllMocks();
    expect(res.status).toBe(500);
    const all = logged.join("\n");
    expect(all).toContain(`request_id=${res.headers.get("x-request-id")} PATCH /api/v1/contacts/labels/[labelId]`);
    expect(all).not.toContain("PATCH-SECRET");
  });
});
