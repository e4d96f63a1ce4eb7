import { getDb } from "@/db/client";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "./context";
import { findSessionByHash } from "./repo";
import { findActiveToken } from "./token-cache";
import { tokenEndedMessage } from "./token-validity";
import { hashToken } from "./tokens";
import { config } from "@/lib/config";
import { clientAddress } from "@/lib/http/client-address";
import { AGENT_DEACTIVATED, sessionEndedMessage } from "./session-schemas";
import { AGENT_DEACTIVATED_REASON } from "./session-repo";
import { isRole } from "./permissions";

export const SESSION_COOKIE = "wa_session";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Resolves the caller of an /api/v1 request: a bearer token of a team, or an agent's session
 * cookie. A present but wrong Authorization header is 401 (no fallback to the cookie); an expired
 * token, or a rolled one past its overlap, is 401 with a message that says so.
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
    // Checked here, not in the query: a cached token expires on time too.
    const ended = tokenEndedMessage(token, Date.now());
    if (ended) throw new ApiError(401, ended);
    return { teamId: token.teamId, actor: { kind: "token", tokenId: token.id, scopes: token.scopes }, address: clientAddress(req) };
  }

  const session = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
  if (!session || session.length > 200) throw ApiError.unauthenticated();
  const row = await findSessionByHash(await getDb(), hashToken(session));
  if (!row) throw ApiError.unauthenticated();
  // A deactivated agent's sessions are ended with it; the agent's own column is read too, so a
  // hand-written UPDATE of it signs the agent out as well (docs/features/agents.md).
  if (row.deactivatedAt || row.endedReason === AGENT_DEACTIVATED_REASON) throw new ApiError(401, AGENT_DEACTIVATED);
  // Ended for its agent (too many sessions): the agent is told why, not just signed out.
  if (row.endedReason) throw new ApiError(401, sessionEndedMessage(config.sessionsPerAgent));
  if (!SAFE_METHODS.has(req.method) && !isSameOrigin(req)) {
    throw ApiError.forbidden("Solicitud de otro origen rechazada.");
  }
  // A role the table does not know (a hand-written UPDATE) grants nothing: authorize() refuses it.
  const role = isRole(row.role) ? row.role : undefined;
  return {
    teamId: row.teamId,
    actor: { kind: "agent", agentId: row.agentId, agentName: row.agentName, sessionId: row.id, role },
    address: clientAddress(req),
  };
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
