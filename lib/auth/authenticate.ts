import { getDb } from "@/db/client";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "./context";
import { findSessionByHash, touchToken } from "./repo";
import { findActiveToken, noteTokenUsed } from "./token-cache";
import { hashToken } from "./tokens";

export const SESSION_COOKIE = "wa_session";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Resolves the caller of an /api/v1 request: a bearer token of a team, or an agent's session
 * cookie. A present but wrong Authorization header is 401 (no fallback to the cookie).
 * Cookie-authenticated writes must come from our own origin (CSRF): the browser's
 * Sec-Fetch-Site or Origin header has to say so.
 */
export async function authenticate(req: Request): Promise<AuthContext> {
  const header = req.headers.get("authorization");
  if (header !== null) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m || m[1].length > 200) throw ApiError.unauthenticated();
    const hash = hashToken(m[1]);
    const token = await findActiveToken(hash);
    if (!token) throw ApiError.unauthenticated();
    if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > 60_000) {
      noteTokenUsed(hash, new Date());
      getDb()
        .then((db) => touchToken(db, token.id))
        .catch(() => {});
    }
    return { teamId: token.teamId, actor: { kind: "token", tokenId: token.id } };
  }

  const session = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
  if (!session || session.length > 200) throw ApiError.unauthenticated();
  const row = await findSessionByHash(await getDb(), hashToken(session));
  if (!row) throw ApiError.unauthenticated();
  if (!SAFE_METHODS.has(req.method) && !isSameOrigin(req)) {
    throw ApiError.forbidden("Solicitud de otro origen rechazada.");
  }
  return { teamId: row.teamId, actor: { kind: "agent", agentId: row.agentId, agentName: row.agentName, sessionId: row.id } };
}

/** A cookie's decoded value; a malformed percent-encoding (`wa_session=%zz`) counts as no cookie. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function isSameOrigin(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = req.headers.get("origin");
  if (!origin) return false;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
