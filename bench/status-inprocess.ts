/**
 * The status path alone, in this process, outside Next and HTTP, on a bench database kept with
 * `npm run bench -- --quick --only=none --keep`:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/wa_bench_… APP_ENCRYPTION_KEY=bench-encryption-key \
 *     [MODE=webhook] npx tsx --conditions=react-server bench/status-inprocess.ts
 *
 * - MODE=status (default): `applyStatusUpdates` (lib/delivery/status.ts), one transaction per
 *   status, by as many concurrent callers as the pool has connections.
 * - MODE=webhook: scenario 13's work without Next: signed webhooks handed to
 *   `receiveWhatsAppWebhook` (lib/meta-webhooks/whatsapp-service.ts) as Request objects by 64 callers, so
 *   the statuses share the group commit as they do in the server.
 *
 * Prints statuses applied per second and this process's CPU per applied status, to set against
 * the server's CPU per status of scenario 13 (the difference is the request around the status:
 * Next and HTTP). The messages it uses get their status and wamid back at the end.
 */
import postgres from "postgres";
import { applyStatusUpdates } from "@/lib/delivery/status";
import { cloudNumberByPhoneNumberId } from "@/lib/meta-webhooks/secrets";
import { receiveWhatsAppWebhook } from "@/lib/meta-webhooks/whatsapp-service";
import { signedStatusWebhook } from "./status-scenarios";

const MESSAGES = Number(process.env.MESSAGES ?? 3000);
const WEBHOOK = process.env.MODE === "webhook";
const CALLERS = Number(process.env.CALLERS ?? (WEBHOOK ? 64 : (process.env.DATABASE_POOL_SIZE ?? 10)));
const STATUSES = ["sent", "delivered", "read"];

async function main() {
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  const saved = `bench_inprocess_${process.pid}`;
  try {
    const [n] = await admin`select number, phone_number_id from wa_numbers where provider = 'cloud_api' order by id limit 1`;
    const number = (await cloudNumberByPhoneNumberId(String(n.phone_number_id)))!;
    await admin.unsafe(`create table ${saved} as select id, status, provider_message_id, error from messages
        where wa_number_id = ${number.id} and direction = 'OUTBOUND' and status in ('SENT', 'DELIVERED', 'READED', 'FAILED')
          and broadcast_id is null order by id desc limit ${MESSAGES}`);
    await admin.unsafe(`update messages m set status = 'SENDED', provider_message_id = 'wamid.inproc.' || m.id, error = null
        from ${saved} s where m.id = s.id`);
    const ids = (await admin.unsafe(`select id from ${saved} order by id`)).map((r) => Number(r.id));

    // Warm-up: the first tenth of the messages take their first status; the rest are measured.
    const warm = ids.splice(0, Math.floor(ids.length / 10));
    const run = async (count: number, update: (i: number) => { id: number; status: string }) => {
      let next = 0;
      let applied = 0;
      await Promise.all(
        Array.from({ length: CALLERS }, async () => {
          for (let i = next++; i < count; i = next++) {
            const u = update(i);
            const wamid = `wamid.inproc.${u.id}`;
            if (WEBHOOK) {
              const hook = signedStatusWebhook({ number: n.number, phoneNumberId: n.phone_number_id }, wamid, u.status);
              const req = new Request("http://bench/api/v1/webhooks/whatsapp", { method: "POST", body: hook.text, headers: hook.headers });
              const done = (await receiveWhatsAppWebhook({ req })).statuses;
              applied += done; // after the await: `applied += await …` would read applied before it
            } else {
              const done = await applyStatusUpdates(number, [
                { providerMessageId: wamid, status: u.status, timestamp: Math.floor(Date.now() / 1000), raw: {} },
              ]);
              applied += done;
            }
          }
        }),
      );
      return applied;
    };
    await run(warm.length, (i) => ({ id: warm[i], status: "sent" }));
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const applied = await run(ids.length * 3, (i) => ({ id: ids[i % ids.length], status: STATUSES[Math.floor(i / ids.length)] }));
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
