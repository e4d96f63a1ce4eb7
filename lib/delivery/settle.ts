import type { DbOrTx } from "@/db/client";
import { pgErrorCode } from "@/db/errors";
import { groupCommit } from "./group-commit";
import type { Outcome } from "./outcome";

/** One item's outcome on its way to its kind's writer. */
export type Settling<S, O extends Outcome, K extends O["kind"]> = { item: S; outcome: Extract<O, { kind: K }> };

type Writer<S, O extends Outcome, K extends O["kind"]> = (tx: DbOrTx, xs: Settling<S, O, K>[]) => Promise<Iterable<number>>;

/**
 * How one kind of claimed work writes each outcome to its own table (the kind's repo): every
 * writer takes many items at once, moves in the transaction it is given only the rows still
 * fenced by their claims (id and attempts as claimed: a worker whose lease ran out and was
 * claimed again elsewhere moves nothing), and returns the ids it moved.
 */
export type Writes<S extends { id: number }, O extends Outcome> = {
  ok: Writer<S, O, "ok">;
  retry: Writer<S, O, "retry">;
  fail: Writer<S, O, "fail">;
  /** Only kinds that give claims back (sends) write releases. */
  release?: Writer<S, O, "release">;
};

/**
 * Settles one item: resolves true when its row moved, false when there was nothing to write
 * (`skip`), the claim had been lost meanwhile, or the worker was killed.
 */
export type Settle<S, O> = {
  (item: S, outcome: O): Promise<boolean>;
  (item: { id: number }, outcome: { kind: "skip" }): Promise<boolean>;
};

/**
 * The one settle path of claimed work (the claim loop builds one per kind, claim-loop.ts): maps
 * each outcome to the kind's writer, and commits every kind of outcome in groups (group-commit.ts:
 * what arrives while a group commits joins the next, so a busy worker's sends settle a batch per
 * transaction and a lone one at once). A killed worker writes nothing more, as in a crash.
 */
export function createSettle<S extends { id: number }, O extends Outcome>(
  name: string,
  writes: Writes<S, O>,
  killed: () => boolean,
): Settle<S, O> {
  type Any = Settling<S, O, O["kind"]>;
  const groups = new Map<string, ReturnType<typeof groupCommit<Any>>>();
  const groupOf = (kind: O["kind"]) => {
    let g = groups.get(kind);
    if (!g) {
      const write = (writes as unknown as Record<string, Writer<S, O, O["kind"]> | undefined>)[kind];
      if (!write) throw new Error(`${name}: no writer for "${kind}"`);
      groups.set(kind, (g = groupCommit<Any>(write, killed)));
    }
    return g;
  };
  return (async (item: S, outcome: O) => {
    if (outcome.kind === "skip" || killed()) return false;
    const moved = await groupOf(outcome.kind).add({ item, outcome } as Any);
    if (!moved && outcome.kind === "ok" && !killed())
      console.warn(`[worker] ${name} ${item.id} was done after its claim was settled elsewhere`);
    return moved;
  }) as Settle<S, O>;
}

/**
 * Logs a failure by kind, item and the error's code only: a driver's message can carry a query's
 * parameters (bodies, tokens), an HTTP client's the URL.
 */
export function logFailure(name: string, id: number | undefined, what: string, err: unknown) {
  console.error(`[worker] ${name}${id === undefined ? "" : ` ${id}`} ${what} (${errorCode(err)})`);
}

function errorCode(err: unknown): string {
  const code = pgErrorCode(err) ?? (err as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" || typeof code === "number") return String(code);
  return err instanceof Error ? err.name : "error";
}
