import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { randomSecret } from "@/lib/crypto/hash";
import type { AuthContext } from "./context";
import { SESSION_COOKIE } from "./authenticate";
import { hashPassword, verifyPassword } from "./password";
import { hashToken } from "./tokens";
import { deleteSession, findAgentByEmail, findAgentById, insertSession } from "./session-repo";
import { INVALID_CREDENTIALS, type AgentDto, type LoginRequest } from "./session-schemas";


// Verifying against a throwaway hash when the email is unknown keeps both failures equally slow,
// so response time does not reveal which emails exist.
let dummyHash: Promise<string> | undefined;

/** Checks the credentials and opens a session; returns the raw token (only its hash is stored). */
export async function login({ input }: { input: LoginRequest }) {
  const agent = await findAgentByEmail(input.email);
  const ok = agent
    ? await verifyPassword(input.password, agent.passwordHash)
    : (await verifyPassword(input.password, await (dummyHash ??= hashPassword("x"))), false);
  if (!agent || !ok) throw ApiError.invalid("email", INVALID_CREDENTIALS);
  const token = randomSecret(32);
  await insertSession({
    agentId: agent.id,
    teamId: agent.teamId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + config.sessionTtlSeconds * 1000),
  });
  const dto: AgentDto = { id: agent.id, name: agent.name, email: agent.email, team_id: agent.teamId };
  return { token, agent: dto };
}

export async function logout({ ctx }: { ctx: AuthContext }) {
  if (ctx.actor.kind === "agent") await deleteSession(ctx.teamId, ctx.actor.sessionId);
}

/** The signed-in agent; a bearer token has no agent behind it (404). */
export async function me({ ctx }: { ctx: AuthContext }): Promise<AgentDto> {
  if (ctx.actor.kind !== "agent") throw ApiError.notFound("La solicitud no pertenece a una sesión de agente.");
  const row = await findAgentById(ctx.teamId, ctx.actor.agentId);
  if (!row) throw ApiError.unauthenticated();
  return { id: row.id, name: row.name, email: row.email, team_id: row.teamId };
}

/** `Set-Cookie` for a session token; Secure only over https so plain-http localhost still works. */
export function sessionCookie(req: Request, token: string, maxAge = config.sessionTtlSeconds): string {
  const https = new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  const parts = [`${SESSION_COOKIE}=${encodeURIComponent(token)}`, "HttpOnly", "SameSite=Lax", "Path=/", `Max-Age=${maxAge}`];
  if (https) parts.push("Secure");
  return parts.join("; ");
}
