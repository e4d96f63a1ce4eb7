"use client";
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import type { Contact, Label } from "@/lib/api-client/types";
import { useContactLabel } from "@/lib/api-client/contact-labels";
import { useT } from "@/lib/i18n";
import { MAX_LABELS_PER_CONTACT } from "@/lib/limits";
import { LabelChip } from "@/components/labels/label-chip";
import { cx } from "@/components/ui";
import { labelErrorText, UNDO_MS, type EditorStatus } from "./label-editor-status";

type FocusAfter =
  { kind: "trigger" } | { kind: "chip"; labelId: number } | { kind: "afterRemove"; removedId: number; candidates: number[] };

/**
 * A contact's label chips, shared by the contacts page and the inbox's contact panel: remove with
 * one click (undoable for a few seconds), add from a popover picker that overlays the page (so
 * opening it never resizes the card or its neighbours), and one status line beneath for the
 * outcome, the undo and the 5-label cap. Keyboard focus stays with the agent: after an add it
 * returns to the "+ Add label" button; after a removal it moves to the neighbouring chip's remove
 * button (or the add button when none is left).
 */
export function ContactLabelEditor({
  contact,
  allLabels,
  pickerId,
}: {
  contact: Pick<Contact, "id" | "labels">;
  allLabels: Label[];
  pickerId: string;
}) {
  const t = useT();
  const add = useContactLabel("add");
  const remove = useContactLabel("remove");
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<EditorStatus | null>(null);
  const [undoPaused, setUndoPaused] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const focusAfter = useRef<FocusAfter | null>(null);
  const atCap = contact.labels.length >= MAX_LABELS_PER_CONTACT;
  const available = allLabels.filter((l) => !contact.labels.some((c) => c.id === l.id));
  const ids = contact.labels.map((l) => l.id).join(",");

  // Focus moves once the chips it depends on are (or are no longer) rendered: at once on the
  // contacts page (optimistic), when the server's event arrives in the inbox.
  useLayoutEffect(() => {
    const want = focusAfter.current;
    if (!want) return;
    const present = new Set(contact.labels.map((l) => l.id));
    const removeButton = (id: number) => wrapper.current?.querySelector<HTMLButtonElement>(`[data-label-id="${id}"] button`);
    if (want.kind === "trigger") trigger.current?.focus();
    else if (want.kind === "chip") {
      if (!present.has(want.labelId)) return;
      removeButton(want.labelId)?.focus();
    } else {
      if (present.has(want.removedId)) return;
      const next = want.candidates.find((id) => present.has(id));
      (next !== undefined ? removeButton(next) : trigger.current)?.focus();
    }
    focusAfter.current = null;
  }, [ids, contact.labels]);

  // The undo offer lapses after a few seconds, but never while the agent is on it.
  useEffect(() => {
    if (status?.kind !== "removed" || undoPaused) return;
    const h = setTimeout(() => setStatus(null), UNDO_MS);
    return () => clearTimeout(h);
  }, [status, undoPaused]);

  // A click anywhere else closes the picker (focus stays where the agent put it).
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [open]);

  const failed = (e: Error) => {
    focusAfter.current = null;
    setStatus({ kind: "error", text: labelErrorText(e.message, t) });
  };

  function addLabel(label: Label, focus: FocusAfter) {
    setUndoPaused(false);
    setStatus(null);
    focusAfter.current = focus;
    add.mutate({ contact, label }, { onSuccess: () => setStatus({ kind: "added", label }), onError: failed });
  }

  function removeLabel(label: Label) {
    const i = contact.labels.findIndex((l) => l.id === label.id);
    const rest = contact.labels.filter((l) => l.id !== label.id);
    // The chip that takes its place, else the one before it, else the add button.
    const candidates = [rest[i], rest[i - 1]].filter(Boolean).map((l) => l!.id);
    focusAfter.current = { kind: "afterRemove", removedId: label.id, candidates };
    setUndoPaused(false);
    setStatus(null);
    remove.mutate({ contact, label }, { onSuccess: () => setStatus({ kind: "removed", label }), onError: failed });
  }

  function onTrigger() {
    if (atCap) {
      setOpen(false);
      setStatus({ kind: "cap" });
      return;
    }
    setOpen((o) => !o);
  }

  function onPickerKey(e: KeyboardEvent<HTMLDivElement>) {
    const options = [...(e.currentTarget.querySelectorAll<HTMLButtonElement>("button") ?? [])];
    const at = options.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "Escape") {
      e.preventDefault();
      setOpen(false);
      trigger.current?.focus();
    } else if (e.key === "ArrowDown" || e.key === "ArrowRight") {
      e.preventDefault();
      options[(at + 1) % options.length]?.focus();
    } else if (e.key === "ArrowUp" || e.key === "ArrowLeft") {
      e.preventDefault();
      options[(at - 1 + options.length) % options.length]?.focus();
    }
  }

  // One status line: the cap warning takes the place of the success line once the contact is full.
  const shown: EditorStatus | null = atCap && (status?.kind === "added" || status?.kind === "cap") ? { kind: "cap" } : status;

  return (
    <div
      ref={wrapper}
      className="relative"
      onBlur={(e) => {
        // Tabbing out of the editor closes the picker.
        if (open && !e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <div className="flex flex-wrap items-center gap-1.5" aria-label={t("contacts.labels")} role="group" data-testid="contact-labels">
        {contact.labels.length === 0 && <span className="text-xs text-slate-600">{t("contacts.noLabels")}</span>}
        {contact.labels.map((l) => (
          <LabelChip key={l.id} label={l} removeLabel={t("contacts.removeLabel", { title: l.title })} onRemove={() => removeLabel(l)} />
        ))}
        <button
          ref={trigger}
          type="button"
          className={cx(
            "rounded-full border border-dashed px-2.5 py-0.5 text-xs font-medium",
            atCap ? "cursor-not-allowed border-slate-300 text-slate-500" : "border-wa-green text-wa-green-dark hover:bg-emerald-50",
          )}
          aria-expanded={open}
          aria-controls={pickerId}
          aria-disabled={atCap}
          data-testid="label-picker-trigger"
          onClick={onTrigger}
        >
          + {t("contacts.addLabel")}
        </button>
      </div>
      {open && (
        <div
          id={pickerId}
          role="group"
          aria-label={t("contacts.addLabel")}
          className="absolute left-0 right-0 top-full z-30 mt-1 max-h-64 overflow-y-auto rounded-md border border-slate-200 bg-white p-2 shadow-lg sm:right-auto sm:w-72 sm:max-w-full"
          data-testid="label-picker"
          onKeyDown={onPickerKey}
        >
          {available.length === 0 ? (
            <p className="text-sm text-slate-600">{t("contacts.pickerEmpty")}</p>
          ) : (
            <ul className="flex flex-wrap gap-1.5">
              {available.map((l, i) => (
                <li key={l.id}>
                  <button
                    type="button"
                    // The first label takes focus as the picker opens, so arrows and Enter work at once.
                    autoFocus={i === 0}
                    className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2"
                    onClick={() => {
                      setOpen(false);
                      trigger.current?.focus();
                      addLabel(l, { kind: "trigger" });
                    }}
                    aria-label={`${t("contacts.addLabel")}: ${l.title}`}
                  >
                    <LabelChip label={l} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div
        role="status"
        aria-live="polite"
        className={cx(
          "mt-1 flex min-h-5 flex-wrap items-center gap-x-2 text-xs",
          shown?.kind === "error" ? "text-red-700" : shown?.kind === "cap" ? "text-amber-900" : "text-emerald-800",
        )}
        data-testid="label-answer"
        onPointerEnter={() => setUndoPaused(true)}
        onPointerLeave={() => setUndoPaused(false)}
        onFocus={() => setUndoPaused(true)}
        onBlur={() => setUndoPaused(false)}
      >
        {shown?.kind === "cap" && <span data-testid="label-cap">{t("contacts.cap", { max: MAX_LABELS_PER_CONTACT })}</span>}
        {shown?.kind === "error" && <span>{shown.text}</span>}
        {shown?.kind === "added" && <span>{t("contacts.added", { title: shown.label.title })}</span>}
        {shown?.kind === "removed" && (
          <>
            <span>{t("contacts.removed", { title: shown.label.title })}</span>
            <button
              type="button"
              className="rounded px-1 font-semibold text-wa-green-dark underline hover:bg-emerald-50"
              aria-label={t("contacts.undoLabel", { title: shown.label.title })}
              data-testid="label-undo"
              onClick={() => addLabel(shown.label, { kind: "chip", labelId: shown.label.id })}
            >
              {t("contacts.undo")}
            </button>
          </>
        )}
      </div>
    </div>
  );
}
