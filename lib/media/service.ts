import "server-only";
import { getDb } from "@/db/client";
import { randomUUID } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { sha256Hex } from "@/lib/crypto/hash";
import { extensionOf, isOwnMediaPath, teamFolder } from "./paths";
import { findMediaFile, insertMedia } from "./repo";
import type { UploadedMedia } from "./schemas";
import { allowedType } from "./types";

export const TYPE_NOT_ALLOWED =
  "Tipo de archivo no permitido: se aceptan imágenes JPEG o PNG, videos MP4, documentos PDF, audios OGG o MP3 y stickers WebP.";
export const EMPTY_FILE = "El archivo está vacío.";
export const MEDIA_NOT_FOUND = "Archivo no encontrado.";

export const extensionMismatch = (ext: string, mime: string) =>
  `La extensión del archivo (.${ext}) no coincide con su contenido (${mime}).`;

/**
 * Stores an uploaded file for the caller's team. The type is decided by the bytes (file-type),
 * never by the name or the client's Content-Type; a declared extension must agree with it.
 * Also called by the admin CLI and the demo seed.
 */
export async function storeMedia({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { bytes: Uint8Array; filename: string };
}): Promise<UploadedMedia> {
  const { bytes, filename } = input;
  if (bytes.byteLength === 0) throw ApiError.invalid("file", EMPTY_FILE);
  const sniffed = await fileTypeFromBuffer(bytes);
  const type = allowedType(sniffed?.mime);
  if (!type) throw ApiError.invalid("file", TYPE_NOT_ALLOWED);
  if (bytes.byteLength > type.maxBytes) {
    throw ApiError.tooLarge(`El archivo supera el tamaño máximo de ${type.label} para ${type.mime}.`);
  }
  const declared = extensionOf(filename);
  if (declared && !type.extensions.includes(declared)) {
    throw ApiError.invalid("file", extensionMismatch(declared, type.mime));
  }
  const ext = declared || type.extensions[0];
  const row = await insertMedia(await getDb(), {
    teamId: ctx.teamId,
    path: `${teamFolder(ctx.teamId)}${randomUUID()}.${ext}`,
    originalName: filename.slice(0, 255),
    contentType: type.mime,
    size: bytes.byteLength,
    sha256: sha256Hex(bytes),
    content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  });
  return { media_path: row.path, content_type: row.contentType, size: row.size, sha256: row.sha256 };
}

/** A file of the caller's team; anything else (another team's, traversal, missing) is a 404. */
export async function getMediaFile({ ctx, input }: { ctx: AuthContext; input: { path: string } }) {
  if (!isOwnMediaPath(ctx.teamId, input.path)) throw ApiError.notFound(MEDIA_NOT_FOUND);
  const file = await findMediaFile(await getDb(), { teamId: ctx.teamId, path: input.path });
  if (!file) throw ApiError.notFound(MEDIA_NOT_FOUND);
  return file;
}
