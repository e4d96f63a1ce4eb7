import { describe, expect, it } from "vitest";
import { MAX_STREAMS_PER_CREDENTIAL, STREAMS_RETRY_AFTER_S, TOO_MANY_STREAMS } from "@/lib/events/stream-registry";
import { openSse, streamOpened, type SseStream } from "../helpers/sse";
import { waitFor } from "../helpers/wait";
import { appProcesses } from "./app-processes";

/**
 * The cap on event streams holds per agent across processes (docs/auth-limits.md, "Event streams
 * per agent"): one agent signed in three times once held 60 streams (20 per session, counted per
 * process). Two app processes on one Postgres, three sessions of one agent: 20 streams in all.
 */
const { startApp } = appProcesses("wa_streams");

describe("event streams per agent across processes", { timeout: 120_000 }, () => {
  it("one agent with three sessions on two processes holds at most the cap; a closed stream frees a slot elsewhere; a token of the team is counted apart", async () => {
    const a = await startApp({ EVENTS_SETUP: "1" });
    const b = await startApp();
    const { sessionCookies, token } = a.setup!;
    const url = (port: number) => `http://127.0.0.1:${port}/api/v1/events`;
    const open: SseStream[] = [];
    try {
      // 30 opens at once: each session on both processes.
      const attempts = Array.from({ length: 30 }, (_, i) => ({ port: i % 2 ? b.port : a.port, cookie: sessionCookies[i % 3] }));
      const answers = await Promise.all(attempts.map(({ port, cookie }) => openSse(url(port), { cookie })));
      open.push(...answers);
      const ok = answers.filter((s) => s.status === 200);
      const refused = answers.filter((s) => s.status === 429);
      expect(ok).toHaveLength(MAX_STREAMS_PER_CREDENTIAL);
      expect(refused).toHaveLength(30 - MAX_STREAMS_PER_CREDENTIAL);
      for (const s of refused) expect(s.headers.get("retry-after")).toBe(String(STREAMS_RETRY_AFTER_S));
      await Promise.all(ok.map(streamOpened));
      // Both processes hold some of them, and every session got some.
      expect(new Set(ok.map((s) => attempts[answers.indexOf(s)].port)).size).toBe(2);
      expect(new Set(ok.map((s) => attempts[answers.indexOf(s)].cookie)).size).toBe(3);

      // A 21st from any session, on either process: refused with the cap's message.
      for (const port of [a.port, b.port]) {
        const res = await fetch(url(port), { headers: { cookie: sessionCookies[2] } });
        expect(res.status).toBe(429);
        expect(await res.json()).toEqual({ message: TOO_MANY_STREAMS });
      }

      // The team's API token is another holder.
      const byToken = await openSse(url(b.port), { authorization: `Bearer ${token}` });
      open.push(byToken);
      expect(byToken.status).toBe(200);

      // One closed on process A: its slot is free, and process B can use it.
      const onA = ok.find((s) => attempts[answers.indexOf(s)].port === a.port)!;
      onA.close();
      const reopened = await waitFor(
        async () => {
          const s = await openSse(url(b.port), { cookie: sessionCookies[0] });
          if (s.status !== 200) s.close();
          return s;
        },
        (s) => s.status === 200,
        10_000,
        50,
      );
      open.push(reopened);
      await streamOpened(reopened);
      const again = await fetch(url(a.port), { headers: { cookie: sessionCookies[1] } });
      expect(again.status).toBe(429);
    } finally {
      open.forEach((s) => s.close());
    }
  });
});
