/**
 * The one waiting helper of the Vitest suite: reads `fn` every `stepMs` until `ok` holds, for at
 * most `timeoutMs`. A condition is awaited, never a fixed time: on a loaded machine the wait is
 * longer, on a quiet one it ends at once. At the deadline it throws with the last value, or, with
 * `atTimeout: "return"`, returns that value so the caller's own assertions say what is missing.
 */
export async function waitFor<T>(
  fn: () => Promise<T> | T,
  ok: (v: T) => boolean,
  timeoutMs = 10_000,
  stepMs = 25,
  atTimeout: "throw" | "return" = "throw",
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > until) {
      if (atTimeout === "return") return v;
      throw new Error(`waitFor timed out; last value: ${JSON.stringify(v)}`);
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
