import { withAuth } from "@/lib/http/with-auth";
import { mediaPathParams } from "@/lib/media/schemas";
import { getMediaFile } from "@/lib/media/service";
import { mediaSecurityHeaders } from "@/lib/http/security-headers";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth<{ path: string[] }>({ need: "media:read" }, async ({ req, ctx, params }) => {
  const path = mediaPathParams.parse(params);
  const file = await getMediaFile({ ctx, input: { path } });
  const etag = `"${file.sha256}"`;
  const headers = {
    "content-type": file.contentType,
    etag,
    // A path never gets new bytes (each upload has a new path), but the file is private to the team.
    "cache-control": "private, max-age=86400",
    // Shown (PDF and video inline too), never run as a page of our origin.
    ...mediaSecurityHeaders(file.contentType),
    "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(file.originalName || path.split("/").pop()!)}`,
  };
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(file.content), { headers: { ...headers, "content-length": String(file.size) } });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
