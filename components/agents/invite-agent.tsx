"use client";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useInvitationMutations, type CreatedInvitation } from "@/lib/api-client/agents";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { createInvitationBody, type CreateInvitationInput } from "@/lib/agents/invitation-schemas";
import { ROLES, type Role } from "@/lib/auth/permissions";
import { useT } from "@/lib/i18n";
import { useLocalizedResolver } from "@/lib/i18n/form-resolver";
import { Button, Card, Field, inputClass } from "@/components/ui";

type FormValues = { email: string; role: Role };

/**
 * "Invitar agente": an e-mail and a role make a one-time link, shown here once with a copy button
 * and the plain note that no e-mail was sent (docs/features/agents.md). Only owners are offered
 * the owner role (the server refuses it to anyone else).
 */
export function InviteAgent({ myRole }: { myRole: Role }) {
  const t = useT();
  const { create } = useInvitationMutations();
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const resolver = useLocalizedResolver(createInvitationBody, { email: t("invite.email"), role: t("invite.role") });
  const { register, handleSubmit, reset, formState } = useForm<FormValues, unknown, CreateInvitationInput>({
    resolver,
    defaultValues: { email: "", role: "agent" },
  });
  const err = create.error instanceof ApiRequestError ? create.error : null;
  const fieldError = (f: keyof FormValues) => formState.errors[f]?.message ?? err?.errors[f]?.[0];
  const general = create.error && !err?.errors.email && !err?.errors.role ? create.error.message : undefined;
  const roles = ROLES.filter((r) => r !== "owner" || myRole === "owner");
  const submit = handleSubmit((input) =>
    create.mutate(input, {
      onSuccess: (invitation) => {
        setCreated(invitation);
        reset({ email: "", role: input.role });
      },
    }),
  );

  return (
    <Card>
      <h2 id="invite-title" className="mb-3 text-lg font-semibold text-slate-900">
        {t("invite.title")}
      </h2>
      <form
        onSubmit={submit}
        noValidate
        aria-labelledby="invite-title"
        className="grid grid-cols-1 gap-3 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] md:items-end"
      >
        <Field id="invite-email" label={t("invite.email")} error={fieldError("email")}>
          <input
            id="invite-email"
            type="email"
            autoComplete="off"
            className={inputClass}
            {...register("email")}
            aria-invalid={!!fieldError("email")}
            aria-describedby={fieldError("email") ? "invite-email-error" : undefined}
          />
        </Field>
        <Field id="invite-role" label={t("invite.role")} error={fieldError("role")}>
          <select id="invite-role" className={inputClass} {...register("role")}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
            ))}
          </select>
        </Field>
        <Button type="submit" disabled={create.isPending} className="md:mb-px">
          {create.isPending ? t("invite.submitting") : t("invite.submit")}
        </Button>
      </form>
      {general && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {general}
        </p>
      )}
      {created && <CreatedLink invitation={created} onDone={() => setCreated(null)} />}
    </Card>
  );
}

/** The link, once: copy it, or select it by hand should the clipboard refuse. */
function CreatedLink({ invitation, onDone }: { invitation: CreatedInvitation; onDone: () => void }) {
  const t = useT();
  const [copy, setCopy] = useState<"idle" | "done" | "failed">("idle");
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(invitation.link);
      setCopy("done");
    } catch {
      setCopy("failed");
    }
  };
  return (
    <div className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 p-3" data-testid="invitation-link">
      <label htmlFor="invitation-link" className="block text-sm font-medium text-emerald-950">
        {t("invite.linkFor", { email: invitation.email, role: t(`role.${invitation.role}`) })}
      </label>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <input
          id="invitation-link"
          readOnly
          value={invitation.link}
          className={`${inputClass} font-mono text-xs`}
          onFocus={(e) => e.currentTarget.select()}
          aria-describedby="invitation-note"
        />
        <Button onClick={copyLink} className="shrink-0">
          {copy === "done" ? t("invite.copied") : t("invite.copy")}
        </Button>
        <Button variant="secondary" onClick={onDone} className="shrink-0">
          {t("invite.done")}
        </Button>
      </div>
      <p id="invitation-note" className="mt-2 text-sm text-emerald-950">
        {invitation.email_sent ? t("invite.mailSent", { email: invitation.email }) : t("invite.noMail")}
      </p>
      {copy === "failed" && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {t("invite.copyFailed")}
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {copy === "done" ? t("invite.copied") : ""}
      </p>
    </div>
  );
}
