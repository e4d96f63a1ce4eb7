"use client";
import { useT, type MessageKey } from "@/lib/i18n";

/**
 * WhatsApp-style status: clock (queued), an outgoing arrow (handed to the channel), one grey tick
 * (sent), two grey (delivered), two blue (read), red mark (failed; the bubble also shows the
 * reason inline).
 */
export function StatusTicks({ status, reason }: { status: string | null; reason?: string | null }) {
  const t = useT();
  if (!status || status === "RECEIVED") return null;
  const known = ["QUEUED", "SENDED", "SENT", "DELIVERED", "READED", "FAILED"].includes(status);
  const label = known ? t(`status.${status}` as MessageKey) : status;
  const title = status === "FAILED" && reason ? `${label}. ${t("msg.failedReason", { reason })}` : label;
  const icon =
    status === "QUEUED" ? (
      <svg viewBox="0 0 16 16" className="h-3.5 w-3.5" aria-hidden="true">
        <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M8 4.5V8l2.5 1.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
      </svg>
    ) : status === "FAILED" ? (
      <svg viewBox="0 0 16 16" className="h-3.5 w-3.5" aria-hidden="true">
        <circle cx="8" cy="8" r="7" fill="currentColor" />
        <path d="M8 4v5M8 11.2v.3" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
    ) : status === "SENDED" ? (
      // Handed to the channel, not yet confirmed by WhatsApp: an outgoing arrow, not yet a tick.
      <svg viewBox="0 0 16 11" className="h-3.5 w-4" aria-hidden="true" data-tick="sended">
        <path
          d="M3 9.5L12 1.5M6.5 1.5H12V7"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    ) : status === "SENT" ? (
      <svg viewBox="0 0 16 11" className="h-3.5 w-4" aria-hidden="true" data-tick="sent">
        <path d="M1.5 6l3 3 7-7.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    ) : (
      <svg viewBox="0 0 20 11" className="h-3.5 w-5" aria-hidden="true">
        <path
          d="M1.5 6l3 3 7-7.5M7.5 8.5l1 .5 7-7.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    );
  const color = status === "READED" ? "text-sky-600" : status === "FAILED" ? "text-red-600" : "text-slate-600";
  return (
    <span
      className={`inline-flex items-center ${color}`}
      title={title}
      data-status={status}
      tabIndex={status === "FAILED" ? 0 : undefined}
      role="img"
      aria-label={title}
    >
      {icon}
    </span>
  );
}
