/**
 * The Server-Sent Events streams open in this process, so a shutdown can end them with a retry
 * hint instead of cutting them: a stream that ends cleanly after `retry: 1000` makes the browser's
 * EventSource reconnect a second later, to another replica, resuming with Last-Event-ID (nothing
 * missed). Without this, `server.close()` would wait for streams that never end on their own.
 *
 * Kept on globalThis: the route handlers and instrumentation.ts are separate bundles, each with
 * its own copy of this module, and they must share one list.
 */
type Ender = (retryMs: number) => void;
type Registry = { open: Set<Ender>; endedWith: number | null };

const g = globalThis as unknown as { __waOpenStreams?: Registry };
const registry = (): Registry => (g.__waOpenStreams ??= { open: new Set(), endedWith: null });

/**
 * Adds a stream; `end` writes the hint and closes it. Returns the function that removes it.
 * A stream opened after the shutdown began is ended at once.
 */
export function registerOpenStream(end: Ender): () => void {
  const r = registry();
  if (r.endedWith !== null) {
    end(r.endedWith);
    return () => {};
  }
  r.open.add(end);
  return () => r.open.delete(end);
}

/** Ends every open stream with `retry: retryMs`, and every one opened from now on; returns how many were open. */
export function endOpenStreams(retryMs: number): number {
  const r = registry();
  r.endedWith = retryMs;
  const ending = [...r.open];
  r.open.clear();
  for (const end of ending) end(retryMs);
  return ending.length;
}

export function openStreamCount(): number {
  return registry().open.size;
}
