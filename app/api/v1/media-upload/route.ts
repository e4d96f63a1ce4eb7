import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { readUploadForm } from "@/lib/media/upload-form";
import { storeMedia } from "@/lib/media/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth({ need: "media:write" }, async ({ req, ctx }) => {
  const input = await readUploadForm(req);
  const data = await storeMedia({ ctx, input });
  return json({ message: "Archivo subido correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
