"use client";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { LIVE_EVENT_TYPES, liveEventHandler } from "./live-events";

export type StreamState = "connecting" | "open" | "down";

type Live = { state: StreamState; listen: () => () => void };
const LiveContext = createContext<Live | null>(null);

/**
 * The browser's one EventSource on `/api/v1/events`, mounted once by the dashboard frame
 * (components/layout/app-shell.tsx). It is open while a page on screen is live (useLiveEvents: the
 * inbox, a broadcast's pages, a history range holding today), so a page that is not (a past range)
 * opens no stream and asks nothing; moving between live pages keeps the same stream. Every event
 * goes to the one handler (live-events.ts), which patches the TanStack caches with setQueryData;
 * only `reset` (a gap the server's log cannot fill) refetches. The browser reconnects by itself and
 * resends Last-Event-ID, so missed events replay.
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [listeners, setListeners] = useState(0);
  const [state, setState] = useState<StreamState>("connecting");
  const live = listeners > 0;

  // A stream the browser gave up on (an HTTP error, not a dropped connection) is opened again.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!live) return;
    const handler = liveEventHandler(qc);
    const es = new EventSource("/api/v1/events");
    for (const type of LIVE_EVENT_TYPES) {
      es.addEventListener(type, (e: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(e.data);
        } catch {
          return;
        }
        handler.event(type, data);
      });
    }
    es.addEventListener("reset", () => handler.reset());
    es.onopen = () => {
      setState("open");
      handler.opened();
    };
    let retry: ReturnType<typeof setTimeout> | undefined;
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED) return setState("connecting");
      setState("down");
      retry = setTimeout(() => setGeneration((g) => g + 1), 3000);
    };
    return () => {
      clearTimeout(retry);
      es.close();
      // The next stream, if any, starts connecting: a page never reads a closed one as open.
      setState((s) => (s === "open" ? "connecting" : s));
    };
  }, [qc, live, generation]);

  const listen = useCallback(() => {
    setListeners((n) => n + 1);
    return () => setListeners((n) => n - 1);
  }, []);
  const value = useMemo(() => ({ state, listen }), [state, listen]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/**
 * Makes the page live while it is mounted: the frame's stream is open and its events patch the
 * caches the page reads. Returns the stream's state (the pages' "En vivo" badges).
 */
export function useLiveEvents(): StreamState {
  const live = useContext(LiveContext);
  const listen = live?.listen;
  useEffect(() => listen?.(), [listen]);
  if (!live) throw new Error("useLiveEvents: the page is not inside the dashboard frame's LiveEventsProvider");
  return live.state;
}
