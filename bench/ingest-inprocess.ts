/**
 * Scenario 13's work without Next: signed status webhooks handed to `receiveWhatsAppWebhook`
 * (lib/meta-webhooks/whatsapp.ts) as Request objects, by 64 concurrent callers in this process,
 * so the statuses share the group commit as they do in the server. On a bench database kept with
 * `npm run bench -- --quick --only=none --keep`:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/wa_bench_… APP_ENCRYPTION_KEY=bench-encryption-key \
 *     npx tsx --conditions=react-server bench/ingest-inprocess.ts
 *
 * Prints statuses applied per second and this process's CPU per status: set against the server's
 * CPU per status in scenario 13, the difference is what Next and HTTP cost around the same work.
 * The messages it uses get their status and wamid back at the end.
 */
import { createHmac } from "node:crypto";
import postgres from "postgres";
import { receiveWhatsAppWebhook } from "@/lib/meta-webhooks/whatsapp";
import { BENCH_APP_SECRET } from "./dataset";

const CALLERS = Number(process.env.CALLERS ?? 64);
const MESSAGES = 6000;
const STATUSES = ["sent", "delivered", "read"];

type CloudNumber = { id: number; number: string; phone_number_id: string };

/** One signed webhook with one status of message `id`, as Meta sends it. */
function webhook(n: CloudNumber, id: number, status: string): Request {
  const text = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "bench-waba",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: n.number, phone_number_id: n.phone_number_id },
              statuses: [
                { id: `wamid.inproc.${id}`, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: "573000000000" },
              ],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac("sha256", BENCH_APP_SECRET).update(text).digest("hex")}`;
  return new Request("http://bench/api/v1/webhooks/whatsapp", {
    method: "POST",
    body: text,
    headers: { "content-type": "application/json", "x-hub-signature-256": signature },
  });
}

async function main() {
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  const saved = `bench_ingest_inprocess_${process.pid}`;
  try {
    const [n] = await admin<
      CloudNumber[]
    >`select id, number, phone_number_id from wa_numbers where provider = 'cloud_api' order by id limit 1`;
    await admin.unsafe(`create table ${saved} as select id, status, provider_message_id, error from messages
        where wa_number_id = ${n.id} and direction = 'OUTBOUND' and status in ('SENT', 'DELIVERED', 'READED', 'FAILED')
          and broadcast_id is null order by id desc limit ${MESSAGES}`);
    await admin.unsafe(`update messages m set status = 'SENDED', provider_message_id = 'wamid.inproc.' || m.id, error = null
        from ${saved} s where m.id = s.id`);
    const ids = (await admin.unsafe(`select id from ${saved} order by id`)).map((r) => Number(r.id));
    // Request i names message i mod ids with sent, then delivered, then read: no two in flight name one message.
    let next = 0;
    let applied = 0;
    const run = (upto: number) =>
      Promise.all(
        Array.from({ length: CALLERS }, async () => {
          for (let i = next++; i < upto; i = next++) {
            const r = await receiveWhatsAppWebhook({ req: webhook(n, ids[i % ids.length], STATUSES[Math.floor(i / ids.length)]) });
            applied += r.statuses;
          }
        }),
      );
    await run(Math.floor(ids.length / 10)); // warm-up
    applied = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await run(ids.length * STATUSES.length);
    const cpu = process.cpuUsage(cpu0);
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `${applied} statuses applied in ${seconds.toFixed(1)} s by ${CALLERS} callers: ${Math.round(applied / seconds)} statuses/s, ` +
        `${((cpu.user + cpu.system) / 1000 / applied).toFixed(2)} ms of this process's CPU per status`,
    );
  } finally {
    await admin
      .unsafe(
        `update messages m set status = s.status, provider_message_id = s.provider_message_id, error = s.error from ${saved} s where m.id = s.id`,
      )
      .catch(() => []);
    await admin.unsafe(`drop table if exists ${saved}`).catch(() => []);
    await admin.end({ timeout: 5 });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
