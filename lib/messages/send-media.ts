import { getDb } from "@/db/client";
import { ApiError } from "@/lib/http/errors";
import { EXTENSIONS_BY_REPLY_TYPE, type ReplyMediaType } from "@/lib/limits";
import { EXTENSIONS_BY_FORMAT, extensionOf, isOwnMediaPath, mediaUrl, teamFolder } from "@/lib/media/paths";
import { findMediaMeta } from "@/lib/media/repo";
import type { TemplateComponent } from "@/lib/templates/schemas";

export const mediaNotAllowed = (template: string) =>
  `La plantilla ${template} no tiene un encabezado multimedia (IMAGE, DOCUMENT o VIDEO): no se admite media_path.`;
export const mediaRequired = (template: string, format: string) =>
  `La plantilla ${template} tiene un encabezado ${format}: indique media_path, pues no tiene un archivo por defecto configurado.`;
export const mediaNotOwned = (teamId: number) => `El archivo de media_path no pertenece a su equipo: debe estar en ${teamFolder(teamId)}.`;
export const MEDIA_MISSING = "El archivo de media_path no existe: súbalo primero con /api/v1/media-upload.";
export const DEFAULT_MEDIA_INVALID =
  "El archivo por defecto de la plantilla no existe o no corresponde a su encabezado: indique media_path.";

export function extensionMismatch(format: keyof typeof EXTENSIONS_BY_FORMAT): string {
  const list = EXTENSIONS_BY_FORMAT[format].map((e) => `.${e}`);
  const allowed = list.length > 1 ? `${list.slice(0, -1).join(", ")} o ${list.at(-1)}` : list[0];
  return `El archivo de media_path debe tener extensión ${allowed} para una plantilla con encabezado ${format}.`;
}

export type ResolvedMedia = { path: string; url: string } | null;

/**
 * The attachment of a send (spec 4.1, media_path rules 1–4): the given path, else the template's
 * default. Checked in the contract's order: header format, extension, own team folder (403,
 * which also refuses every traversal or encoded form, see isOwnMediaPath), then existence.
 */
export async function resolveMedia(
  teamId: number,
  template: { name: string; components: TemplateComponent[]; defaultMediaPath: string | null },
  mediaPath: string | null,
): Promise<ResolvedMedia> {
  const header = template.components.find((c) => c.type === "HEADER");
  if (!header || header.format === "TEXT") {
    if (mediaPath) throw ApiError.invalid("media_path", mediaNotAllowed(template.name));
    return null;
  }
  const format = header.format;
  if (!mediaPath) return resolveDefault(teamId, template, format);
  if (!EXTENSIONS_BY_FORMAT[format].includes(extensionOf(mediaPath))) {
    throw ApiError.invalid("media_path", extensionMismatch(format));
  }
  if (!isOwnMediaPath(teamId, mediaPath)) throw ApiError.forbidden(mediaNotOwned(teamId));
  if (!(await findMediaMeta(await getDb(), { teamId, path: mediaPath }))) throw ApiError.invalid("media_path", MEDIA_MISSING);
  return { path: mediaPath, url: mediaUrl(mediaPath) };
}

/** A default attachment is admin configuration: an http(s) URL is used as it is, an upload must exist. */
async function resolveDefault(
  teamId: number,
  template: { name: string; defaultMediaPath: string | null },
  format: keyof typeof EXTENSIONS_BY_FORMAT,
): Promise<ResolvedMedia> {
  const path = template.defaultMediaPath;
  if (!path) throw ApiError.invalid("media_path", mediaRequired(template.name, format));
  if (/^https?:\/\//i.test(path)) return { path, url: path };
  const usable =
    EXTENSIONS_BY_FORMAT[format].includes(extensionOf(path)) &&
    isOwnMediaPath(teamId, path) &&
    (await findMediaMeta(await getDb(), { teamId, path })) !== undefined;
  if (!usable) {
    throw ApiError.invalid("media_path", DEFAULT_MEDIA_INVALID);
  }
  return { path, url: mediaUrl(path) };
}

export function replyExtensionMismatch(type: ReplyMediaType): string {
  const list = EXTENSIONS_BY_REPLY_TYPE[type].map((e) => `.${e}`);
  const allowed = list.length > 1 ? `${list.slice(0, -1).join(", ")} o ${list.at(-1)}` : list[0];
  return `El archivo de media_path debe tener extensión ${allowed} para un mensaje de tipo ${type}.`;
}

/**
 * The attachment of a free-form reply, with the rules of 4.1 in the same order: extension of the
 * message type, own team folder (403), then existence. Returns what its 2.5 payload shows.
 */
export async function resolveReplyMedia(teamId: number, type: ReplyMediaType, mediaPath: string) {
  const field = "payload.media_path";
  if (!EXTENSIONS_BY_REPLY_TYPE[type].includes(extensionOf(mediaPath))) throw ApiError.invalid(field, replyExtensionMismatch(type));
  if (!isOwnMediaPath(teamId, mediaPath)) throw ApiError.forbidden(mediaNotOwned(teamId));
  const meta = await findMediaMeta(await getDb(), { teamId, path: mediaPath });
  if (!meta) throw ApiError.invalid(field, MEDIA_MISSING);
  return { path: mediaPath, url: mediaUrl(mediaPath), contentType: meta.contentType, sha256: meta.sha256 };
}
