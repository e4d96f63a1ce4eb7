"use client";
import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";
import { useT } from "@/lib/i18n";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { ROLE_REFUSED } from "@/lib/auth/permissions";

/** Small UI primitives shared by every page, so the three screens look and behave alike. */
export function cx(...parts: (string | false | null | undefined)[]) {
  return parts.filter(Boolean).join(" ");
}

// `ref` reaches the <button> with the rest (React 19 passes it as a prop).
type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: "primary" | "secondary" | "danger" | "ghost";
  ref?: Ref<HTMLButtonElement>;
};

export function Button({ variant = "primary", className, ...rest }: ButtonProps) {
  const styles = {
    primary: "bg-wa-green text-white hover:bg-wa-green-dark disabled:bg-slate-400",
    secondary: "bg-white text-slate-800 border border-slate-300 hover:bg-slate-100 disabled:text-slate-400",
    danger: "bg-white text-red-700 border border-red-300 hover:bg-red-50",
    ghost: "text-slate-700 hover:bg-slate-100",
  }[variant];
  return (
    <button
      type="button"
      className={cx(
        "inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed",
        styles,
        className,
      )}
      {...rest}
    />
  );
}

export const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-wa-green focus:outline-none focus:ring-2 focus:ring-wa-green/30 aria-[invalid=true]:border-red-600";

/** A labelled field; `error` is the server's (or the schema's) exact text, tied to the input by id. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700" data-field-error={id}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A form's error that belongs to no one field (the server's message, a refusal), read out when it appears. */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <section className={cx("rounded-lg border border-slate-200 bg-white p-4 shadow-sm", className)}>{children}</section>;
}

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx("animate-pulse rounded bg-slate-200", className)} />;
}

export function SkeletonRows({ rows = 4, label }: { rows?: number; label?: string }) {
  const t = useT();
  return (
    <div role="status" aria-label={label ?? t("common.loading")} className="space-y-3">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">{children}</p>;
}

export function ErrorBox({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useT();
  // The server's refusal of a role is said in the dashboard's language.
  const refused = error instanceof ApiRequestError && error.status === 403 && error.message === ROLE_REFUSED;
  const message = refused ? t("errors.role") : error instanceof Error ? error.message : t("common.error");
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      <span>{message || t("common.error")}</span>
      {onRetry && (
        <Button variant="danger" onClick={onRetry}>
          {t("common.retry")}
        </Button>
      )}
    </div>
  );
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
      <h1 className="text-xl font-semibold text-slate-900">{children}</h1>
      {actions}
    </div>
  );
}
