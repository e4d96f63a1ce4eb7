/**
 * One app process for the cross-process events test (two-processes.test.ts): the real events and
 * contact-label route modules served over node:http on DATABASE_URL. Outside Vite there is no
 * import.meta.glob, so the routes are imported here. EVENTS_SETUP=1 first creates a team with a
 * contact and a label and prints them. Prints `READY {"port":…, "setup":…}` once it serves.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { runMigrations } from "@/db/migrate";
import * as events from "@/app/api/v1/events/route";
import * as contactLabels from "@/app/api/v1/contacts/[contactId]/labels/route";
import { createContact, createLabel, createTeam } from "../helpers/factories";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routes: [RegExp, string, Handler, string?][] = [
  [/^\/api\/v1\/events$/, "GET", events.GET as Handler],
  [/^\/api\/v1\/contacts\/(\d+)\/labels$/, "POST", contactLabels.POST as Handler, "contactId"],
];

async function main() {
  await runMigrations();
  let setup: Record<string, unknown> | null = null;
  if (process.env.EVENTS_SETUP === "1") {
    const team = await createTeam();
    const contact = await createContact(team.id);
    const label = await createLabel(team.id);
    setup = { token: team.token, contactId: contact.id, labelId: label.id };
  }
  const server = http.createServer(async (inc, res) => {
    const url = `http://${inc.headers.host}${inc.url}`;
    const { pathname } = new URL(url);
    const route = routes.find(([re, method]) => re.test(pathname) && method === inc.method);
    if (!route) {
      res.statusCode = 404;
      return res.end();
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(inc.headers)) if (typeof v === "string") headers.set(k, v);
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const hasBody = inc.method !== "GET";
    const request = new Request(url, {
      method: inc.method,
      headers,
      signal: abort.signal,
      body: hasBody ? (Readable.toWeb(inc) as ReadableStream) : undefined,
      // @ts-expect-error Node's fetch needs duplex for streamed bodies
      duplex: "half",
    });
    const m = route[0].exec(pathname)!;
    const params: Record<string, string> = route[3] ? { [route[3]]: m[1] } : {};
    const response = await route[2](request, { params: Promise.resolve(params) });
    res.statusCode = response.status;
    response.headers.forEach((v, k) => res.setHeader(k, v));
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (abort.signal.aborted) break;
        res.write(chunk);
      }
    }
    res.end();
  });
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`READY ${JSON.stringify({ port, setup })}\n`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
