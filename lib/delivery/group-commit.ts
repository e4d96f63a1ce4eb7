import { transaction, type DbOrTx } from "@/db/client";

type Waiting<X> = { x: X; done: (moved: boolean) => void; fail: (err: unknown) => void };

/**
 * Commits writes in groups: every write that arrives while the previous group is being committed
 * joins the next one, so under load one transaction (and its WAL flush) covers many, and a lone
 * write is committed at once with no added wait. `write` moves the rows still fenced by their
 * claims and returns the ids it moved; each waiting write learns whether its own row moved.
 * `killed` drops what is still waiting, as a crash would.
 */
export function groupCommit<X extends { item: { id: number } }>(
  write: (tx: DbOrTx, xs: X[]) => Promise<Iterable<number>>,
  killed: () => boolean,
) {
  let queue: Waiting<X>[] = [];
  let flushing = false;

  const commit = async (xs: X[]) => new Set(await transaction((tx) => write(tx, xs)));

  async function flush() {
    flushing = true;
    try {
      while (queue.length && !killed()) {
        const group = queue;
        queue = [];
        try {
          const moved = await commit(group.map((w) => w.x));
          for (const w of group) w.done(moved.has(w.x.item.id));
        } catch {
          // One bad row (say, a provider id already stored) must not cost the others their
          // record: each is tried alone, and only its own failure is reported to it.
          for (const w of group) {
            if (killed()) w.done(false);
            else await commit([w.x]).then((moved) => w.done(moved.has(w.x.item.id)), w.fail);
          }
        }
      }
    } finally {
      flushing = false;
      if (killed()) for (const w of queue.splice(0)) w.done(false);
    }
  }

  return {
    /** Resolves with whether the row moved (false: the claim was lost, or the worker killed). */
    add(x: X): Promise<boolean> {
      return new Promise((done, fail) => {
        queue.push({ x, done, fail });
        if (!flushing) void flush();
      });
    },
  };
}
