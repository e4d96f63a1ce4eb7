/**
 * A real delay, for the one place where elapsed wall time is itself the behaviour under test: the
 * fake Graph API answering late (tests/fakes/graph.ts), so that the client's socket timeout
 * (GRAPH_TIMEOUT_MS) really fires and a send's outcome becomes uncertain. Fake timers cannot stand
 * in for it: the timeout runs in undici's sockets, and in other processes (the crash-safety
 * servers). And the inbox's browser test of a customer writing half a second after the agent
 * opened the conversation (e2e/thread-first-page.spec.ts): that half second is the scenario.
 * Everywhere else a test waits on a condition (wait.ts), an event or fake timers.
 */
export function realDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
