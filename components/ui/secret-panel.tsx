"use client";
import { useEffect, useRef, useState } from "react";
import { useT } from "@/lib/i18n";
import { Button, cx, inputClass } from "@/components/ui";

/**
 * A secret just made (an API token, a webhook endpoint's signing secret): shown once, selected, with
 * a copy button, until the agent says it is saved; it lives only in the caller's state.
 */
export function SecretPanel({
  id,
  title,
  label,
  secret,
  onDone,
  testId,
}: {
  /** Prefix of the panel's element ids (several pages may show one). */
  id: string;
  title: string;
  label: string;
  secret: string;
  onDone: () => void;
  testId: string;
}) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [secret]);
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-sm"
      data-testid={testId}
    >
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        {title}
      </h3>
      <p className="mt-1 text-sm font-medium text-amber-900">{t("tokens.secretWarning")}</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <label htmlFor={`${id}-value`} className="sr-only">
          {label}
        </label>
        <input
          id={`${id}-value`}
          ref={input}
          readOnly
          value={secret}
          className={cx(inputClass, "font-mono text-xs sm:text-sm")}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          variant="secondary"
          className="shrink-0"
          onClick={() =>
            navigator.clipboard.writeText(secret).then(
              () => setCopy("copied"),
              () => setCopy("failed"),
            )
          }
        >
          {copy === "copied" ? t("tokens.copied") : t("tokens.copy")}
        </Button>
      </div>
      {/* Said to screen readers; seen only when the copy failed (the button says "Copiado" otherwise). */}
      <p role="status" className={cx("mt-1 text-xs text-red-700", copy !== "failed" && "sr-only")}>
        {copy === "failed" ? t("tokens.copyFailed") : copy === "copied" ? t("tokens.copied") : ""}
      </p>
      <Button className="mt-2" onClick={onDone}>
        {t("tokens.done")}
      </Button>
    </section>
  );
}
