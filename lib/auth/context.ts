/** Who is calling, and for which team. Every service function takes it; every query filters by teamId. */
export type Actor = { kind: "token"; tokenId: number } | { kind: "agent"; agentId: number; agentName: string; sessionId: number };

export type AuthContext = { teamId: number; actor: Actor };
