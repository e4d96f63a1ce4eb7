"use client";
import { useI18n } from "@/lib/i18n";
import { RichText } from "./rich-text";
import { formatMoney, parseAmount } from "./format";
import { arr, obj, str } from "./safe-url";
import { emojiOf, flowAnswers } from "./payload-helpers";

/**
 * Types WhatsApp sends beyond the contract's list (the list is open): `reaction`, `order` (a
 * cart from the catalogue) and `nfm_reply` (a WhatsApp Flow's answers). Every field is untrusted.
 */
type P = { payload: unknown };

/**
 * A reaction whose message is not on the page (reactions to loaded messages are drawn on them,
 * see components/history/rows.ts): one small line.
 */
export function ReactionMessage({ payload }: P) {
  const { t } = useI18n();
  const emoji = emojiOf(obj(payload).emoji);
  return (
    <p data-renderer="reaction" className="text-xs italic text-slate-700">
      {emoji ? t("msg.reactedTo", { emoji }) : t("msg.reactionRemoved")}
    </p>
  );
}

type Line = { id: string; qty: number | null; price: number | null; currency: string };

export function OrderMessage({ payload }: P) {
  const { t, locale } = useI18n();
  const p = obj(payload);
  const lines: Line[] = arr(p.product_items).map((raw) => {
    const item = obj(raw);
    return {
      id: str(item.product_retailer_id),
      qty: parseAmount(item.quantity),
      price: parseAmount(item.item_price),
      currency: str(item.currency),
    };
  });
  const currencies = new Set(lines.map((l) => l.currency.trim().toUpperCase()));
  const priced = lines.every((l) => l.qty !== null && l.price !== null);
  // A total only when it means something: every line priced, all in one currency.
  const total = lines.length > 0 && priced && currencies.size === 1 ? lines.reduce((sum, l) => sum + l.qty! * l.price!, 0) : null;
  const count = lines.reduce((n, l) => n + (l.qty !== null && Number.isInteger(l.qty) && l.qty > 0 ? l.qty : 1), 0);
  const money = (n: number | null, currency: string) => (n === null ? "" : formatMoney(n, currency, locale));
  return (
    <div data-renderer="order" className="min-w-60 text-sm">
      <div className="-mx-1 -mt-1 mb-2 flex items-center gap-2 rounded-md bg-black/5 p-2">
        <span aria-hidden="true" className="flex h-9 w-9 items-center justify-center rounded bg-wa-light text-lg text-white">
          🛒
        </span>
        <div>
          <p className="font-semibold">{t("msg.order")}</p>
          <p className="text-xs text-slate-600">{t("msg.orderItems", { count })}</p>
        </div>
      </div>
      {lines.length > 0 && (
        <table className="w-full text-left text-xs">
          <thead className="text-slate-600">
            <tr>
              <th className="pb-1 font-medium">{t("msg.orderProduct")}</th>
              <th className="pb-1 text-right font-medium">{t("msg.orderQty")}</th>
              <th className="pb-1 text-right font-medium">{t("msg.orderPrice")}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l, i) => (
              <tr key={i} className="border-t border-slate-200 align-top" data-testid="order-line">
                <td className="py-1 pr-2 font-medium break-all">{l.id || "?"}</td>
                <td className="py-1 text-right">{l.qty ?? "?"}</td>
                <td className="py-1 pl-2 text-right whitespace-nowrap">{money(l.price, l.currency)}</td>
              </tr>
            ))}
          </tbody>
          {total !== null && (
            <tfoot>
              <tr className="border-t border-slate-300 font-semibold">
                <td className="pt-1" colSpan={2}>
                  {t("msg.orderTotal")}
                </td>
                <td className="pt-1 text-right whitespace-nowrap" data-testid="order-total">
                  {money(total, lines[0].currency)}
                </td>
              </tr>
            </tfoot>
          )}
        </table>
      )}
      {str(p.text) && (
        <p className="mt-2">
          <RichText text={str(p.text)} />
        </p>
      )}
      {str(p.catalog_id) && <p className="mt-1 text-[11px] text-slate-600">{t("msg.orderCatalog", { id: str(p.catalog_id) })}</p>}
    </div>
  );
}

export function FlowReplyMessage({ payload }: P) {
  const { t } = useI18n();
  const p = obj(payload);
  const answers = flowAnswers(p.response_json);
  const address = str(p.name) === "address_message";
  const body = str(p.body);
  return (
    <div data-renderer="nfm_reply" className="min-w-56 text-sm">
      <div className="mb-1 rounded border-l-4 border-wa-light bg-black/5 px-2 py-1 text-xs text-slate-700">
        <span aria-hidden="true">📝 </span>
        {address ? t("msg.addressReply") : body && body !== "Sent" ? body : t("msg.flowSent")}
      </div>
      <p className="text-xs font-semibold text-slate-600">{address ? t("msg.address") : t("msg.flowReply")}</p>
      {answers.length ? (
        <dl className="mt-1 space-y-1">
          {answers.map(([label, value], i) => (
            <div key={i} data-testid="flow-answer">
              {label && <dt className="text-xs text-slate-600">{label}</dt>}
              <dd className="wa-text">{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-xs text-slate-600">{t("msg.flowEmpty")}</p>
      )}
    </div>
  );
}
