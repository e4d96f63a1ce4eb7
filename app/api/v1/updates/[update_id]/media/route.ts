import { withAuth } from "@/lib/http/with-auth";
import { updateParams } from "@/lib/delivery/updates-schemas";
import { getUpdateMedia } from "@/lib/delivery/updates-service";
import { mediaSecurityHeaders } from "@/lib/http/security-headers";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** Streams an inbound attachment from the channel (the `url` of inbound media payloads). */
export const GET = withAuth<{ update_id: string }>({ need: "updates:read" }, async ({ ctx, params }) => {
  const input = updateParams.parse(params);
  const media = await getUpdateMedia({ ctx, input });
  return new Response(media.body, {
    headers: {
      "content-type": media.contentType,
      "cache-control": "private, max-age=300",
      // Customer files are shown (PDF and video inline too), never run as pages of our origin.
      ...mediaSecurityHeaders(media.contentType),
    },
  });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
