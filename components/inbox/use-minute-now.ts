"use client";
import { useSyncExternalStore } from "react";

/**
 * One "now" for every clock of the inbox, moved once a minute on the minute: a list of 100 rows
 * shares one timer instead of running 100, and no row asks the server anything to tick (the
 * waits are counted from `waiting_since`, docs/features/inbox.md). The timer runs only while a
 * component listens.
 */
let now = Date.now();
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
  schedule();
}

function schedule() {
  timer = setTimeout(tick, 60_000 - (Date.now() % 60_000));
}

function subscribe(listener: () => void) {
  if (!listeners.size) {
    // The first listener after a pause: React compares the snapshot again after subscribing, so a
    // "now" left from an earlier screen is replaced before anything is shown for long.
    now = Date.now();
    schedule();
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (!listeners.size) {
      clearTimeout(timer);
      timer = undefined;
    }
  };
}

const snapshot = () => now;

/** The shared "now" (milliseconds), moving once a minute. */
export function useMinuteNow(): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
