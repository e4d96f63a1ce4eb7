import { transaction } from "@/db/client";
import { markSendedMany, type MessageRow, type Sended } from "./repo";
import { queueStatusWebhooks } from "./status";

type Item = Sended & { numberDigits: string; done: (row: MessageRow | undefined) => void; fail: (err: unknown) => void };

/**
 * Records accepted sends as SENDED in groups: every send that finishes while the previous group
 * is being committed joins the next one, so under load a transaction (and its WAL flush) covers
 * many sends, and a lone send is committed at once with no added wait. Each row stays fenced by
 * its own claim (markSendedMany). `killed` drops what is still waiting, as a crash would.
 */
export function sendedBatcher(killed: () => boolean) {
  let queue: Item[] = [];
  let flushing = false;

  async function commit(items: Item[]) {
    return transaction(async (tx) => {
      const rows = await markSendedMany(tx, items);
      const digits = new Map(items.map((i) => [i.c.id, i.numberDigits]));
      await queueStatusWebhooks(
        tx,
        rows.map((row) => ({ row, numberDigits: digits.get(row.id) ?? "" })),
        "QUEUED",
      );
      return rows;
    });
  }

  async function flush() {
    flushing = true;
    try {
      while (queue.length && !killed()) {
        const items = queue;
        queue = [];
        try {
          const rows = new Map((await commit(items)).map((r) => [r.id, r]));
          for (const i of items) i.done(rows.get(i.c.id));
        } catch {
          // One bad row (say, a provider id already stored) must not cost the others their
          // record: each is tried alone, and only its own failure is reported to it.
          for (const i of items) {
            if (killed()) return;
            await commit([i]).then(([row]) => i.done(row), i.fail);
          }
        }
      }
    } finally {
      flushing = false;
      for (const i of queue.splice(0)) if (killed()) i.done(undefined);
    }
  }

  return {
    /** Resolves with the updated row, or undefined when the claim was lost (or the worker killed). */
    add(s: Sended, numberDigits: string): Promise<MessageRow | undefined> {
      return new Promise((done, fail) => {
        queue.push({ ...s, numberDigits, done, fail });
        if (!flushing) void flush();
      });
    },
  };
}
