import { getDb } from "@/db/client";
import type { ChannelNumber } from "@/lib/channels/types";
import { leaseSlots, reserveSlots, type Claim } from "./repo";

/** What pacing needs of a claimed send: its claim and its number's schedule. */
export type Paced = { c: Claim; number: Pick<ChannelNumber, "id" | "messagesPerSecond" | "nextSendAt"> };

export type PacerOptions = {
  /** Fraction added to each slot: 0.05 sends at most 95 % of messages_per_second. */
  pacingHeadroom: number;
  /** How far past its slot a lease extension reaches. */
  holdMs: () => number;
  /** What a send leaving at its slot still needs of its lease: the request and the SENDED commit. */
  afterSlotMs: () => number;
  /** Stop writing at once (a crash simulation): no reservation or lease after this. */
  killed: () => boolean;
};

/** Why a wait for a slot ended: time to send, the worker is stopping or was killed, or the claim was lost. */
export type Turn = "send" | "stopping" | "killed" | "lost";

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
export { sleep };

/**
 * Slot reservation and pacing for one worker: never more than a number's messages_per_second
 * across all workers, through the shared schedule on wa_numbers.next_send_at (repo.reserveSlots).
 *
 * Its state, all of it in memory and this worker's own:
 * - `scheduleEnd`: where each number's schedule ended at this worker's last reservation, the
 *   estimate that lets leases be stretched before slots are reserved (see reserve);
 * - `late`: sends of one number that woke past their slot, gathered to take fresh slots together.
 */
export function createPacer(o: PacerOptions) {
  const scheduleEnd = new Map<number, number>();
  type LateSend = { ready: Paced; settle: (slotAt: number | undefined) => void; fail: (err: unknown) => void };
  const late = new Map<number, LateSend[]>();
  const LEASE_MARGIN_MS = 1000;
  /** How late after its slot a send may still leave (see waitTurn). */
  const lateMs = Math.max(2, o.pacingHeadroom * 500);

  /**
   * Leases first (when needed at all), slots second. The lease extension is a durable commit (a
   * WAL flush); done after the reservation it would make the first slots late on arrival, and
   * late slots are given back (waitTurn), which on a busy database would send nearly everything
   * down the one-by-one path. So each lease is stretched over an estimate of its slot (this
   * worker's view of the number's schedule + a margin), then all slots are reserved in one quick
   * statement, and only the claims whose real slot lies beyond their estimate (other workers
   * reserved meanwhile) get a second extension; their slots are by then in the future. Returns
   * the owned claims with their slots (a claim lost to another worker is left out).
   */
  async function reserve<T extends Paced>(items: T[]): Promise<{ r: T; slotAt: number }[]> {
    if (!items.length) return [];
    const number = items[0].number;
    const estStep = ((1 + o.pacingHeadroom) * 1000) / Math.max(number.messagesPerSecond, 1);
    const estStart = Math.max(scheduleEnd.get(number.id) ?? 0, number.nextSendAt?.getTime() ?? 0, Date.now());
    const estimate = (i: number) => estStart + i * estStep + LEASE_MARGIN_MS;
    // Until when each claim's lease is known to cover a send leaving then, its request and its
    // SENDED commit. The claim's own lease (durably committed by the claim, which took the
    // worker's clock before asking) usually covers slots a second or two ahead already (30 s
    // lease, 15 s Graph timeout): those need no extension at all, only the slot reservation.
    const after = o.afterSlotMs();
    const bound = new Map(items.map((r) => [r.c.id, (r.c.leaseEnd ?? 0) - after]));
    const short = items.flatMap((r, i) => (estimate(i) > bound.get(r.c.id)! ? [{ c: r.c, slotAt: estimate(i) }] : []));
    let mine = items;
    if (short.length) {
      const leased = await leaseSlots(await getDb(), { items: short, holdMs: o.holdMs() });
      for (const s of short) if (leased.has(s.c.id)) bound.set(s.c.id, s.slotAt);
      mine = items.filter((r) => leased.has(r.c.id) || !short.some((s) => s.c.id === r.c.id));
    }
    if (!mine.length || o.killed()) return [];
    const { startAt, stepMs } = await reserveSlots(await getDb(), {
      waNumberId: number.id,
      count: mine.length,
      headroom: o.pacingHeadroom,
      leadMs: lateMs,
    });
    scheduleEnd.set(number.id, startAt + mine.length * stepMs);
    const slotted = mine.map((r, i) => ({ r, slotAt: startAt + i * stepMs, bound: bound.get(r.c.id)! }));
    const beyond = slotted.filter((s) => s.slotAt > s.bound);
    if (!beyond.length) return slotted.map(({ r, slotAt }) => ({ r, slotAt }));
    const still = await leaseSlots(await getDb(), { items: beyond.map((s) => ({ c: s.r.c, slotAt: s.slotAt })), holdMs: o.holdMs() });
    return slotted.filter((s) => s.slotAt <= s.bound || still.has(s.r.c.id)).map(({ r, slotAt }) => ({ r, slotAt }));
  }

  /**
   * A fresh slot for a send that woke past its own. When the event loop stalls, many wake late at
   * once: one reservation per number per turn of the loop replaces a statement (and a wait on the
   * number's row lock) for each of them. Undefined when the claim was lost meanwhile.
   */
  function reslot(ready: Paced): Promise<number | undefined> {
    return new Promise((settle, fail) => {
      const id = ready.number.id;
      let waiting = late.get(id);
      if (!waiting) {
        const batch: LateSend[] = [];
        late.set(id, (waiting = batch));
        setImmediate(() => {
          late.delete(id);
          reserve(batch.map((w) => w.ready)).then(
            (slotted) => {
              const at = new Map(slotted.map((s) => [s.r.c.id, s.slotAt]));
              for (const w of batch) w.settle(at.get(w.ready.c.id));
            },
            (err) => batch.forEach((w) => w.fail(err)),
          );
        });
      }
      waiting.push({ ready, settle, fail });
    });
  }

  /**
   * Waits for the send's slot. A send may leave at most `lateMs` after its slot: a worker that
   * wakes later (a stalled event loop, a GC pause) takes a fresh slot instead, so late sends can
   * never bunch up with punctual ones. With slots (1 + h)/mps apart, any one-second window then
   * holds at most mps departures as long as lateMs ≤ h·1000 ms; half of that is used, and the
   * other half is left for jitter between leaving here and arriving at the provider. Slots
   * reserved together are consecutive and no other reservation overlaps them, so the argument is
   * the same for a batch as for single slots. `stopping` aborts the wait; `state` says why.
   */
  async function waitTurn(
    ready: Paced,
    slotAt: number,
    stopping: AbortSignal,
    state: () => "running" | "stopping" | "killed",
  ): Promise<Turn> {
    for (;;) {
      await sleep(slotAt - Date.now(), stopping);
      const s = state();
      if (s !== "running") return s;
      if (Date.now() - slotAt <= lateMs) return "send";
      const fresh = await reslot(ready);
      if (fresh === undefined) return "lost";
      slotAt = fresh;
    }
  }

  return {
    lateMs,
    reserve,
    reslot,
    waitTurn,
    /** This worker's estimate of where a number's schedule ends (tests, diagnostics). */
    scheduleEndOf: (numberId: number) => scheduleEnd.get(numberId),
  };
}
export type Pacer = ReturnType<typeof createPacer>;
