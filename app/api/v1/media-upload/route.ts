import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { readUploadForm } from "@/lib/media/upload-form";
import { storeMedia } from "@/lib/media/service";

export const POST = withAuth(async ({ req, ctx }) => {
  const input = await readUploadForm(req);
  const data = await storeMedia({ ctx, input });
  return json({ message: "Archivo subido correctamente.", data });
});
