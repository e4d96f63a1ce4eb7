/**
 * When a token that is not revoked stops working, and what its caller is told then: at its expiry
 * (`expires_at`), or, once rolled, at the end of the overlap its successor was given
 * (`overlap_ends_at`), whichever comes first. A pure function of the row and the time, so
 * authenticate() applies it to a cached token as well as to one just read, and the list shows the
 * same state (docs/features/api-tokens.md).
 */
export type TokenTimes = { expiresAt: Date | null; overlapEndsAt: Date | null };
export type TokenEnd = { kind: "expired" | "replaced"; at: Date };

export const tokenExpiredMessage = (at: Date) => `El token de API venció el ${at.toISOString()}: cree uno nuevo.`;
export const tokenReplacedMessage = (at: Date) =>
  `El token de API fue reemplazado por otro al renovarlo y dejó de valer el ${at.toISOString()}: use el nuevo.`;

/** Null while the token works at `now` (epoch ms); else how and when it ended. */
export function tokenEnd(t: TokenTimes, now: number): TokenEnd | null {
  // Most tokens never expire: every authenticated request comes through here.
  if (t.expiresAt === null && t.overlapEndsAt === null) return null;
  const ends = [
    t.expiresAt && { kind: "expired" as const, at: t.expiresAt },
    t.overlapEndsAt && { kind: "replaced" as const, at: t.overlapEndsAt },
  ].filter((e): e is TokenEnd => !!e && e.at.getTime() <= now);
  ends.sort((a, b) => a.at.getTime() - b.at.getTime());
  return ends[0] ?? null;
}

/** Null while the token works at `now`; else the 401's message. */
export function tokenEndedMessage(t: TokenTimes, now: number): string | null {
  const end = tokenEnd(t, now);
  if (!end) return null;
  return end.kind === "expired" ? tokenExpiredMessage(end.at) : tokenReplacedMessage(end.at);
}
