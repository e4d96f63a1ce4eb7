"use client";
import type { Message } from "@/lib/api-client/types";
import { useT, type MessageKey } from "@/lib/i18n";
import { cx } from "@/components/ui";
import { PayloadView } from "./payload";
import { StatusTicks } from "./status-ticks";
import { RoutingNote } from "./routing-note";
import { obj, str } from "./safe-url";

/** Time of day from `created_at` ("YYYY-MM-DD HH:mm:ss", already in the app's time zone). */
export function timeOf(m: Message): string {
  return m.created_at?.slice(11, 16) ?? "";
}

function failureReason(m: Message): string | null {
  const e = obj(m.error);
  return [str(e.title), str(e.details)].filter(Boolean).join(": ") || null;
}

/** One message: inbound on the left in white, outbound on the right in green, as WhatsApp shows it. */
export function MessageBubble({ m, highlight }: { m: Message; highlight?: boolean }) {
  const t = useT();
  const inbound = m.direction === "INBOUND";
  const sticker = m.type === "sticker";
  const senderKey = m.sender && ["CUSTOMER", "AGENT", "BOT", "SYSTEM"].includes(m.sender) ? (`sender.${m.sender}` as MessageKey) : null;
  const who = m.sender === "AGENT" && m.agent_name ? m.agent_name : senderKey ? t(senderKey) : m.sender;
  return (
    <div className={cx("flex px-3 py-1", inbound ? "justify-start" : "justify-end")}>
      <article
        data-message-id={m.id}
        data-type={m.type ?? ""}
        data-direction={m.direction ?? ""}
        data-status={m.status ?? ""}
        data-update-id={m.update_id}
        className={cx(
          "relative max-w-[85%] rounded-lg px-2 pb-1 pt-1.5 shadow-sm sm:max-w-[65%]",
          sticker ? "bg-transparent shadow-none" : inbound ? "rounded-tl-none bg-white" : "rounded-tr-none bg-wa-out",
          highlight && "ring-2 ring-amber-400",
        )}
      >
        {who && (
          <p className={cx("mb-0.5 text-xs font-semibold", inbound ? "text-wa-green-dark" : "text-sky-800")} data-testid="sender">
            {who}
            {m.sender === "AGENT" && m.agent_name ? <span className="font-normal text-slate-600"> · {t("sender.AGENT")}</span> : null}
          </p>
        )}
        <PayloadView type={m.type} payload={m.payload} />
        <p className="mt-0.5 flex items-center justify-end gap-1 text-[11px] text-slate-600">
          <time dateTime={m.timestamp ? new Date(m.timestamp * 1000).toISOString() : undefined}>{timeOf(m)}</time>
          {!inbound && <StatusTicks status={m.status} reason={failureReason(m)} />}
        </p>
        {inbound && m.routed_to ? <RoutingNote routedTo={m.routed_to} /> : null}
      </article>
    </div>
  );
}
