"use client";
import { useState } from "react";
import { useSavedReplies, useSavedReplyMutations, type SavedReply } from "@/lib/api-client/saved-replies";
import { useT } from "@/lib/i18n";
import { Button, Card, EmptyState, ErrorBox, inputClass, PageTitle, SkeletonRows } from "@/components/ui";
import { SavedReplyForm } from "./saved-reply-form";

function matches(r: SavedReply, q: string) {
  const fold = (s: string) =>
    s
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
  const needle = fold(q.trim());
  return !needle || [r.shortcut, r.title, r.content].some((s) => fold(s).includes(needle));
}

/** The team's saved replies: create, search, edit, delete. Agents use them by typing `/` in the composer. */
export function SavedRepliesPage() {
  const t = useT();
  const replies = useSavedReplies();
  const { create } = useSavedReplyMutations();
  const [search, setSearch] = useState("");
  const shown = (replies.data ?? []).filter((r) => matches(r, search));
  return (
    <>
      <PageTitle>{t("saved.title")}</PageTitle>
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("saved.intro")}</p>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[400px_minmax(0,1fr)]">
        <Card className="self-start">
          <h2 className="mb-3 text-sm font-semibold">{t("saved.new")}</h2>
          <SavedReplyForm
            idPrefix="new"
            submitText={t("saved.create")}
            pending={create.isPending}
            error={create.error}
            onSubmit={(v, reset) => create.mutate(v, { onSuccess: reset })}
          />
        </Card>
        <div className="space-y-3">
          <label htmlFor="saved-search" className="sr-only">
            {t("saved.search")}
          </label>
          <input
            id="saved-search"
            type="search"
            className={inputClass}
            placeholder={t("saved.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          {replies.isError ? (
            <ErrorBox error={replies.error} onRetry={() => replies.refetch()} />
          ) : replies.isLoading ? (
            <SkeletonRows rows={4} />
          ) : !shown.length ? (
            <EmptyState>{replies.data?.length ? t("saved.noMatch") : t("saved.empty")}</EmptyState>
          ) : (
            <ul className="space-y-2">
              {shown.map((r) => (
                <SavedReplyRow key={r.id} reply={r} />
              ))}
            </ul>
          )}
        </div>
      </div>
    </>
  );
}

function SavedReplyRow({ reply }: { reply: SavedReply }) {
  const t = useT();
  const { update, remove } = useSavedReplyMutations();
  const [editing, setEditing] = useState(false);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid="saved-reply-row" data-saved-reply-id={reply.id}>
      {editing ? (
        <SavedReplyForm
          idPrefix={`edit-${reply.id}`}
          initial={reply}
          submitText={t("common.save")}
          pending={update.isPending}
          error={update.error}
          onCancel={() => setEditing(false)}
          onSubmit={(v) => update.mutate({ id: reply.id, ...v }, { onSuccess: () => setEditing(false) })}
        />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0 flex-1">
            <p className="text-sm">
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-emerald-900">/{reply.shortcut}</code>{" "}
              <span className="font-semibold">{reply.title}</span>
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-700">{reply.content}</p>
          </div>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`${t("common.edit")}: /${reply.shortcut}`}>
              {t("common.edit")}
            </Button>
            <Button
              variant="danger"
              disabled={remove.isPending}
              aria-label={`${t("common.delete")}: /${reply.shortcut}`}
              onClick={() => {
                if (window.confirm(t("saved.confirmDelete", { shortcut: reply.shortcut }))) remove.mutate(reply.id);
              }}
            >
              {t("common.delete")}
            </Button>
          </div>
          {remove.error && (
            <p role="alert" className="w-full text-sm text-red-700">
              {remove.error.message}
            </p>
          )}
        </div>
      )}
    </li>
  );
}
