import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { eventStreamQuery } from "@/lib/events/schemas";
import { openEventStream } from "@/lib/events/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** `Last-Event-ID` as browsers resend it on reconnect; anything but a plain id is ignored. */
function lastEventIdHeader(req: Request): number | undefined {
  const raw = req.headers.get("last-event-id")?.trim();
  return raw && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

export const GET = withAuth({ need: "events:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, eventStreamQuery);
  const body = await openEventStream({ ctx, input, lastEventId: lastEventIdHeader(req), signal: req.signal });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      // nginx and similar buffer responses unless told not to; a buffered stream is not live.
      "x-accel-buffering": "no",
    },
  });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
