import { ApiError } from "@/lib/http/errors";
import { readBodyLimited } from "@/lib/http/parse";
import { storableText } from "@/lib/http/storable";
import { uploadFormSchema } from "./schemas";
import { MAX_UPLOAD_BYTES, MULTIPART_OVERHEAD_BYTES } from "./types";

export const NOT_MULTIPART = "El encabezado Content-Type debe ser multipart/form-data.";
export const BAD_MULTIPART = "El cuerpo multipart/form-data no es válido.";
export const BAD_FILENAME = "El nombre del archivo contiene caracteres no válidos (el carácter NUL o sustitutos UTF-16 sueltos).";

/**
 * Reads the `file` field of a multipart upload. The body is read with a hard byte limit (413 as
 * soon as Content-Length or the bytes received pass the largest allowed file), so an oversized
 * upload is refused before it is buffered.
 */
export async function readUploadForm(req: Request): Promise<{ bytes: Uint8Array; filename: string }> {
  const contentType = req.headers.get("content-type") ?? "";
  if (contentType.split(";")[0].trim().toLowerCase() !== "multipart/form-data") {
    throw new ApiError(415, NOT_MULTIPART);
  }
  const body = await readBodyLimited(req, MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES);
  let form: FormData;
  try {
    form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw ApiError.badRequest(BAD_MULTIPART);
  }
  const { file } = uploadFormSchema.parse({ file: form.get("file") ?? undefined });
  // The name is stored (media.original_name): Postgres text cannot hold a NUL.
  if (storableText(file.name) !== file.name) throw ApiError.invalid("file", BAD_FILENAME);
  return { bytes: new Uint8Array(await file.arrayBuffer()), filename: file.name };
}
