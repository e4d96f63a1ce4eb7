import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createAgent, createContact, createLabel, createNumber, createTeam, createTemplate } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";
import { createToken } from "@/lib/auth/tokens";
import { getOpenApiDocument } from "@/lib/openapi/document";
import { PERMISSIONS, ROLES, ROLE_REFUSED, SCOPES, allows, scopeRefused, type Permission } from "@/lib/auth/permissions";

/**
 * docs/roles.md against the server: every operation of the OpenAPI document, called as a session
 * of each role and as a token of each single scope, answers 403 exactly where the doc's table says
 * so, never 500; the ids in the paths are another team's (or none), so an allowed caller gets 404
 * or its own 4xx, never that team's rows. It is about authorization, not bodies: an empty JSON
 * object is sent to every write.
 */
type Cell = "✓" | "403" | "—";
type Row = { permission: string; cells: Record<string, Cell> };

function readDocTable(): Map<string, Row> {
  const text = fs.readFileSync(path.join(process.cwd(), "docs/roles.md"), "utf8");
  const section = text.slice(text.indexOf("## Every operation"));
  const lines = section.split("\n").filter((l) => l.startsWith("|"));
  const split = (l: string) =>
    l
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim().replace(/^`|`$/g, ""));
  const header = split(lines[0]);
  const rows = new Map<string, Row>();
  for (const line of lines.slice(2)) {
    const cells = split(line);
    const byColumn: Record<string, Cell> = {};
    header.slice(2).forEach((col, i) => (byColumn[col] = cells[i + 2] as Cell));
    rows.set(cells[0], { permission: cells[1], cells: byColumn });
  }
  return rows;
}

/** What each route file declares next to withAuth, by "METHOD /api/v1/…{param}". */
function declaredNeeds(): Map<string, string> {
  const files = import.meta.glob<string>("/app/api/v1/**/route.ts", { query: "?raw", import: "default", eager: true });
  const needs = new Map<string, string>();
  for (const [file, source] of Object.entries(files)) {
    const p = file
      .replace(/^\/app/, "")
      .replace(/\/route\.ts$/, "")
      .replace(/\[(?:\.\.\.)?(\w+)\]/g, "{$1}");
    for (const m of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = withAuth(?:<[^>]*>)?\(\{ need: "([^"]+)" \}/g)) {
      needs.set(`${m[1]} ${p}`, m[2]);
    }
  }
  return needs;
}

type Caller = { column: string; headers: Record<string, string>; refused: string };

let server: TestServer;
let callers: Caller[];
let params: Record<string, string>;
const table = readDocTable();
const doc = getOpenApiDocument() as unknown as { paths: Record<string, Record<string, { security?: unknown[] }>> };
const operations = Object.entries(doc.paths)
  .flatMap(([p, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, method, path: p, op })))
  // Signing out ends the caller's session: last.
  .sort((a, b) => Number(a.key === "POST /api/v1/auth/logout") - Number(b.key === "POST /api/v1/auth/logout"));

beforeAll(async () => {
  server = await startServer();
  const [team, other] = await Promise.all([createTeam(), createTeam()]);
  const [contact, label, otherAgent, otherNumber, otherToken, template] = await Promise.all([
    createContact(other.id),
    createLabel(other.id),
    createAgent(other.id),
    createNumber(other.id),
    createToken({ input: { teamId: other.id, name: "otro" } }),
    createTemplate(other.id),
  ]);
  const reply = await apiClient(server.url, other.token).post("/api/v1/saved-replies", {
    shortcut: "otro",
    title: "Otro",
    content: "Hola",
  });
  expect(reply.status).toBe(201);
  const invitation = await apiClient(server.url, other.token).post("/api/v1/agents/invitations", {
    email: `otro-${randomUUID()}@example.com`,
    role: "agent",
  });
  expect(invitation.status).toBe(201);
  params = {
    contactId: String(contact.id),
    labelId: String(label.id),
    agentId: String(otherAgent.id),
    numberId: String(otherNumber.id),
    tokenId: String(otherToken.id),
    savedReplyId: String(reply.body.data.id),
    invitationId: String(invitation.body.data.id),
    templateId: String(template.id),
    conversationId: "2147483000",
    broadcastId: "2147483000",
    update_id: randomUUID(),
    channel: "whatsapp",
    path: `uploads/team${team.id}/nada.jpg`,
  };
  const sessions = await Promise.all(
    ROLES.map(async (role) => ({ column: role, headers: (await agentSession(team.id, { role })).headers, refused: ROLE_REFUSED })),
  );
  const tokens = await Promise.all(
    SCOPES.map(async (scope) => {
      const { token } = await createToken({ input: { teamId: team.id, name: scope, scopes: [scope] } });
      return { column: scope, headers: { authorization: `Bearer ${token}` }, refused: "" };
    }),
  );
  callers = [...sessions, ...tokens];
});
afterAll(() => server.close());

/** One call: its status and message; an event stream is closed as soon as its head arrives. */
async function call(method: string, url: string, headers: Record<string, string>) {
  const write = method !== "get";
  const res = await fetch(server.url + url, {
    method: method.toUpperCase(),
    headers: write ? { ...headers, "content-type": "application/json" } : headers,
    body: write ? "{}" : undefined,
  });
  if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
    await res.body?.cancel();
    return { status: res.status, message: undefined };
  }
  const text = await res.text();
  let message: unknown;
  try {
    message = JSON.parse(text)?.message;
  } catch {}
  return { status: res.status, message };
}

// About 700 requests: a few seconds alone, longer beside other test files on two cores.
describe("roles and token scopes on every operation (docs/roles.md)", { timeout: 180_000 }, () => {
  it("the doc lists every operation of the OpenAPI document, each with the permission its route declares", () => {
    const needs = declaredNeeds();
    expect([...table.keys()].sort()).toEqual(operations.map((o) => o.key).sort());
    for (const { key, op } of operations) {
      const row = table.get(key)!;
      if (op.security && op.security.length === 0) {
        expect(row.permission, key).toBe("public");
        continue;
      }
      expect(row.permission, key).toBe(needs.get(key));
      // The doc's cells are the permission table's, column by column.
      const need = row.permission as Permission;
      expect(PERMISSIONS[need], key).toBeDefined();
      for (const role of ROLES) expect(row.cells[role], `${key} ${role}`).toBe(allows({ role }, need) ? "✓" : "403");
      for (const scope of SCOPES) expect(row.cells[scope], `${key} ${scope}`).toBe(allows({ scopes: [scope] }, need) ? "✓" : "403");
    }
  });

  it("answers 403 exactly where the table says, never 500, and another team's ids stay 404", async () => {
    const mismatches: string[] = [];
    await Promise.all(
      callers.map(async (caller) => {
        for (const { key, method, path: p, op } of operations) {
          const url = p.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
          const isPublic = op.security && op.security.length === 0;
          const { status, message } = await call(method, url, isPublic ? {} : caller.headers);
          const where = `${key} as ${caller.column}: ${status} ${String(message)}`;
          if (status >= 500) mismatches.push(`${where} (server error)`);
          if (isPublic) {
            if (message === ROLE_REFUSED || String(message).startsWith("El token no tiene")) mismatches.push(`${where} (public refused)`);
            continue;
          }
          const expected = table.get(key)!.cells[caller.column];
          if (expected === "403") {
            const need = table.get(key)!.permission as Permission;
            const text = caller.refused || scopeRefused(PERMISSIONS[need].scopes);
            if (status !== 403 || message !== text) mismatches.push(`${where} (expected 403 ${text})`);
          } else if (status === 403) {
            mismatches.push(`${where} (expected allowed)`);
          } else if (/\{(contactId|labelId|agentId|savedReplyId|numberId|invitationId|tokenId|templateId)\}/.test(p) && status < 400) {
            mismatches.push(`${where} (another team's row answered)`);
          } else if (
            method === "get" &&
            /\{(contactId|labelId|agentId|savedReplyId|conversationId|broadcastId|update_id)\}/.test(p) &&
            status !== 404
          ) {
            mismatches.push(`${where} (expected 404)`);
          }
        }
      }),
    );
    expect(mismatches).toEqual([]);
  });
});
