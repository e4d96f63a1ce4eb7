/**
 * Meta redelivering a backlog of webhooks, as tests/hardening/webhook-backlog.test.ts needs it:
 * every post is sent until it is answered 200; one answered otherwise (a 503 when the server
 * sheds load, a 500) or not within `timeoutMs` is posted again `retryMs` later, as Meta retries
 * what failed. `connections` posts are in flight at once. Every answer's time is kept.
 */
export type Post = { raw: string; signature: string };

export type Replay = {
  /** Milliseconds from each post's send to its answer (every answer, whatever its status). */
  answerMs: number[];
  /** Answers by status; "timeout" for posts that got none within `timeoutMs`. */
  byStatus: Record<string, number>;
};

export async function replayBacklog(
  url: string,
  posts: Post[],
  { connections, retryMs, timeoutMs }: { connections: number; retryMs: number; timeoutMs: number },
): Promise<Replay> {
  const pending = posts.map((_, i) => i);
  const answerMs: number[] = [];
  const byStatus: Record<string, number> = {};
  const count = (k: string) => (byStatus[k] = (byStatus[k] ?? 0) + 1);
  let left = posts.length;
  let retrying = 0;
  const lane = async () => {
    // A lane ends when nothing is left to post and nothing waits for a retry.
    while (left > 0) {
      const i = pending.shift();
      if (i === undefined) {
        if (retrying === 0 && pending.length === 0) return;
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      const { raw, signature } = posts[i];
      const began = performance.now();
      let ok = false;
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": signature },
          body: raw,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.arrayBuffer();
        answerMs.push(performance.now() - began);
        count(String(res.status));
        ok = res.status === 200;
      } catch {
        count("timeout");
      }
      if (ok) {
        left--;
        continue;
      }
      retrying++;
      setTimeout(() => {
        retrying--;
        pending.push(i);
      }, retryMs);
    }
  };
  await Promise.all(Array.from({ length: connections }, lane));
  return { answerMs, byStatus };
}

/** The `p`-th percentile (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
