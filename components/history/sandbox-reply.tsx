"use client";
import { useId, useState, type FormEvent } from "react";
import { useSandboxReply } from "@/lib/api-client/history";
import { useT } from "@/lib/i18n";
import { Button, Card, inputClass } from "@/components/ui";

/**
 * On a sandbox number there is no real customer: this lets the agent answer as the customer
 * (POST /api/v1/sandbox/inbound). The reply arrives through the same path as a real webhook, so
 * it is attributed to the template it answers and routed, and shows in the conversation above.
 */
export function SandboxReply({ waNumber, customerNumber }: { waNumber: string; customerNumber: string }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState("");
  const reply = useSandboxReply();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return;
    reply.mutate({ wa_number: waNumber, from: customerNumber, type: "text", payload: { text } }, { onSuccess: () => setText("") });
  }

  return (
    <Card className="mt-3">
      <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2" data-testid="sandbox-reply">
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="mb-1 block text-sm font-medium">
            {t("sandbox.label")}
          </label>
          <input
            id={id}
            className={inputClass}
            value={text}
            maxLength={4096}
            placeholder={t("sandbox.placeholder")}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={reply.isPending || !text.trim()}>
          {t("sandbox.send")}
        </Button>
      </form>
      <p className="mt-1 text-xs text-slate-600" role="status">
        {reply.isError ? <span className="text-red-700">{(reply.error as Error).message}</span> : t("sandbox.hint")}
      </p>
    </Card>
  );
}
