import { config } from "@/lib/config";

/** Extensions a media header accepts (lib/limits.ts, shared with the dashboard). */
export { EXTENSIONS_BY_FORMAT } from "@/lib/limits";

export function teamFolder(teamId: number): string {
  return `uploads/team${teamId}/`;
}

/** Lower-case extension of the last path segment, without the dot ("" when there is none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/**
 * Whether `path` names a file directly inside the team's own folder. Rather than normalizing
 * (and getting one of the many encodings wrong), anything that could change meaning when some
 * layer decodes or resolves it is refused outright: backslashes, `%`, control characters, `.`,
 * `..` or empty segments, a leading slash, sub-folders. Such a path never reaches a lookup.
 */
export function isOwnMediaPath(teamId: number, path: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\\%\u0000-\u001f\u007f]/.test(path)) return false;
  const folder = teamFolder(teamId);
  if (!path.startsWith(folder)) return false;
  const name = path.slice(folder.length);
  return name.length > 0 && name.length <= 255 && !name.includes("/") && name !== "." && name !== "..";
}

/** Where the attachment is served (app/api/v1/media/[...path]); payload URLs point here. */
export function mediaUrl(path: string): string {
  return `${config.appUrl}/api/v1/media/${path}`;
}
