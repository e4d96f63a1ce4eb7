import { z } from "@/lib/http/zod-es";

export const FILE_REQUIRED = "El campo file es obligatorio y debe ser un archivo.";

/** The multipart form of `POST /media-upload`: one file in the field `file`. */
export const uploadFormSchema = z.object({ file: z.instanceof(File, { message: FILE_REQUIRED }) }).meta({ id: "MediaUploadForm" });

export const uploadedMediaSchema = z
  .object({
    media_path: z.string(),
    content_type: z.string(),
    size: z.number().int(),
    sha256: z.string(),
  })
  .meta({ id: "UploadedMedia" });
export type UploadedMedia = z.infer<typeof uploadedMediaSchema>;

export const uploadMediaResponse = z.object({ message: z.string(), data: uploadedMediaSchema }).meta({ id: "UploadMediaResponse" });

/** `{path}` of `GET /media/{path}`: a catch-all arrives as its segments. */
export const mediaPathParams = z
  .object({ path: z.union([z.string(), z.array(z.string())]) })
  .transform(({ path }) => (Array.isArray(path) ? path.join("/") : path));
