"use client";
import type { Message } from "@/lib/api-client/types";
import { useI18n, type MessageKey, type Translate } from "@/lib/i18n";
import { providerErrorText } from "@/lib/i18n/provider-error";
import type { Reaction } from "@/components/history/rows";
import { cx } from "@/components/ui";
import { PayloadView } from "./payload";
import { StatusTicks } from "./status-ticks";
import { RoutingNote } from "./routing-note";
import { obj, str } from "./safe-url";
import { formatDateTime, formatTime } from "@/lib/i18n/dates";
import { emojiOf } from "./payload-helpers";

function failureReason(m: Message, t: Translate): string | null {
  const e = obj(m.error);
  const original = [str(e.title), str(e.details)].filter(Boolean).join(": ");
  return providerErrorText(t, typeof e.code === "number" ? e.code : null, original) || null;
}

/**
 * One message: inbound on the left in white, outbound on the right in green, as WhatsApp shows it.
 * `reactions` are the emojis other messages put on this one (drawn on its corner); the routing
 * note shows unless `showRouting` is false (the list shows it once per routed reply).
 */
export function MessageBubble({
  m,
  highlight,
  reactions,
  showRouting = true,
}: {
  m: Message;
  highlight?: boolean;
  reactions?: Reaction[];
  showRouting?: boolean;
}) {
  const { t, locale } = useI18n();
  const inbound = m.direction === "INBOUND";
  const sticker = m.type === "sticker";
  const reason = m.status === "FAILED" ? failureReason(m, t) : null;
  const shown = (reactions ?? []).map((r) => ({ ...r, emoji: emojiOf(r.emoji) })).filter((r) => r.emoji);
  const reactionLabel = shown
    .map((r) => t(r.direction === "INBOUND" ? "msg.reactionCustomer" : "msg.reactionBusiness", { emoji: r.emoji }))
    .join(", ");
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
          shown.length > 0 && "mb-3",
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
        <p
          className={cx(
            "mt-0.5 flex items-center justify-end gap-1 text-[11px] text-slate-600",
            sticker && "ml-auto w-fit rounded bg-white/80 px-1",
          )}
        >
          <time
            dateTime={m.timestamp ? new Date(m.timestamp * 1000).toISOString() : undefined}
            title={formatDateTime(m.created_at, locale)}
          >
            {formatTime(m.created_at, locale)}
          </time>
          {!inbound && <StatusTicks status={m.status} reason={reason} />}
        </p>
        {reason && (
          <p className="mt-0.5 rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-800" data-testid="failure-reason">
            <span aria-hidden="true">⚠ </span>
            {t("msg.notSent")}: {reason}
          </p>
        )}
        {inbound && m.routed_to && showRouting ? <RoutingNote routedTo={m.routed_to} /> : null}
        {shown.length > 0 && (
          <p
            role="img"
            aria-label={t("msg.reactions", { list: reactionLabel })}
            title={reactionLabel}
            data-testid="reactions"
            className={cx(
              "absolute -bottom-3.5 flex gap-0.5 rounded-full bg-white px-1.5 py-0.5 text-sm leading-none shadow ring-1 ring-slate-200",
              inbound ? "left-2" : "right-2",
            )}
          >
            {shown.map((r) => (
              <span key={r.direction} data-direction={r.direction}>
                {r.emoji}
              </span>
            ))}
          </p>
        )}
      </article>
    </div>
  );
}
