import "server-only";
import { getDb, transaction, withReadDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { insertEvents } from "@/lib/events/repo";
import { ApiError } from "@/lib/http/errors";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { isValidNumber, sanitizeNumber } from "@/lib/phone";
import { requireTeamLabels, toLabelDto } from "@/lib/labels/service";
import type { LabelDto } from "@/lib/labels/schemas";
import { changeLabelsOfContact, labelsOfContacts, lastActivityOfContacts, listContactRows, upsertContacts, type ContactRow } from "./repo";
import { setOptOut } from "./opt-out-repo";
import {
  CONTACT_LABEL_CAP,
  CONTACT_NOT_FOUND,
  LABEL_NOT_ASSIGNED,
  LABEL_NOT_FOUND,
  MAX_LABELS_PER_CONTACT,
  createContactInput,
  type ContactDto,
  type ContactLabelIdsInput,
  type CreateContactInput,
  type UpdateContactInput,
} from "./schemas";

type ListContactsInput = { page: number; per_page: number; search?: string; label_id?: number[] };

/**
 * A page of the team's contacts with their labels and last activity. `label_id` keeps the
 * contacts holding any of those labels; a label that is not the team's answers 422 as it does
 * when assigning (another team's label reads like a missing one).
 */
export async function listContacts({ ctx, input }: { ctx: AuthContext; input: ListContactsInput }) {
  const labelIds = await requireTeamLabels(ctx.teamId, input.label_id);
  // The page, its labels and its activity may be a moment behind: each read goes to the replica when there is one.
  const offset = offsetOf(input.page, input.per_page);
  const { rows, total } = await withReadDb(ctx.teamId, (db) =>
    listContactRows(db, { teamId: ctx.teamId, search: input.search, limit: input.per_page, offset, labelIds }),
  );
  const ids = rows.map((r) => r.id);
  const [labelRows, activity] = await Promise.all([
    withReadDb(ctx.teamId, (db) => labelsOfContacts(db, { teamId: ctx.teamId, contactIds: ids })),
    withReadDb(ctx.teamId, (db) => lastActivityOfContacts(db, { teamId: ctx.teamId, contactIds: ids })),
  ]);
  const byContact = new Map<number, LabelDto[]>();
  for (const l of labelRows) {
    const list = byContact.get(l.contactId) ?? [];
    list.push(toLabelDto(l));
    byContact.set(l.contactId, list);
  }
  const data: ContactDto[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    customer_number: r.customerNumber,
    customer_id: r.customerId,
    labels: byContact.get(r.id) ?? [],
    last_activity_at: activity.get(r.id)?.toISOString() ?? null,
    marketing_opt_out: optOutOf(r),
  }));
  return { data, pagination: paginationMeta(total, input.per_page, input.page) };
}

function optOutOf(r: Pick<ContactRow, "marketingOptedOutAt" | "marketingOptOutReason">): ContactDto["marketing_opt_out"] {
  return r.marketingOptedOutAt ? { at: r.marketingOptedOutAt.toISOString(), reason: r.marketingOptOutReason ?? "agent" } : null;
}

/**
 * PATCH /contacts/{contactId}: an agent opts the contact out of marketing or back in (when the
 * customer asks again to receive promotions). Answers the whole contact; a `contact.updated` event
 * tells every open screen.
 */
export async function updateContact({ ctx, input }: { ctx: AuthContext; input: { contactId: number } & UpdateContactInput }) {
  const contact = await transaction(async (tx) => {
    const row = await setOptOut(tx, { teamId: ctx.teamId, contactId: input.contactId, optedOut: input.marketing_opt_out, reason: "agent" });
    if (!row) throw ApiError.notFound(CONTACT_NOT_FOUND);
    const marketing_opt_out = optOutOf(row);
    await insertEvents(tx, [
      { teamId: ctx.teamId, type: "contact.updated", contactId: row.id, data: { contact_id: row.id, marketing_opt_out } },
    ]);
    return row;
  });
  // Read on the primary: the answer must show the write just made.
  const db = await getDb();
  const [labelRows, activity] = await Promise.all([
    labelsOfContacts(db, { teamId: ctx.teamId, contactIds: [contact.id] }),
    lastActivityOfContacts(db, { teamId: ctx.teamId, contactIds: [contact.id] }),
  ]);
  return {
    id: contact.id,
    name: contact.name,
    customer_number: contact.customerNumber,
    customer_id: contact.customerId,
    labels: labelRows.map(toLabelDto),
    last_activity_at: activity.get(contact.id)?.toISOString() ?? null,
    marketing_opt_out: optOutOf(contact),
  } satisfies ContactDto;
}

type LabelsChange = { ctx: AuthContext; input: { contactId: number } & ContactLabelIdsInput };

/**
 * Spec 4.3: cumulative and idempotent per label, at most 5 per contact. The contact row is locked
 * first, so parallel requests for one contact are checked one after another against the cap.
 */
export async function addContactLabels({ ctx, input }: LabelsChange): Promise<LabelDto[]> {
  return changeContactLabels(ctx, input, "add");
}

/** Spec 4.4: removes only the given labels, and none of them if any id fails. */
export async function removeContactLabels({ ctx, input }: LabelsChange): Promise<LabelDto[]> {
  return changeContactLabels(ctx, input, "remove");
}

/**
 * What adding and removing share, in one statement committed on its own (changeLabelsOfContact):
 * the contact is locked (404 if not the team's), every label must be the team's, then the cap
 * (add) or that every label is assigned (remove); only then the change is written with the
 * `contact.labels` event every open screen learns of it by (GET /api/v1/events). Answers the
 * contact's labels afterwards.
 */
async function changeContactLabels(
  ctx: AuthContext,
  { contactId, label_ids: ids }: LabelsChange["input"],
  mode: "add" | "remove",
): Promise<LabelDto[]> {
  const r = await changeLabelsOfContact(await getDb(), {
    teamId: ctx.teamId,
    contactId,
    ids,
    mode,
    maxLabels: MAX_LABELS_PER_CONTACT,
  });
  if (!r.contactFound) throw ApiError.notFound(CONTACT_NOT_FOUND);
  if (!r.labelsFound) throw ApiError.invalid("label_ids", LABEL_NOT_FOUND);
  if (mode === "add" && r.countAfterAdd > MAX_LABELS_PER_CONTACT) throw ApiError.invalid("label_ids", CONTACT_LABEL_CAP);
  if (mode === "remove" && !r.allAssigned) throw ApiError.invalid("label_ids", LABEL_NOT_ASSIGNED);
  return r.labels;
}

export const CONTACT_NUMBER_INVALID = "El número de teléfono no es válido.";
export const CONTACT_NUMBER_TAKEN = "Ya existe un contacto con ese número.";
export const CONTACT_CUSTOMER_ID_TAKEN = "Ya existe un contacto con ese customer_id.";

/** Admin CLI `contact:add`: the number is stored sanitized (digits only). */
export async function createContact({ ctx, input }: { ctx: AuthContext; input: CreateContactInput }) {
  const parsed = createContactInput.parse(input);
  const number = sanitizeNumber(parsed.customer_number);
  if (!isValidNumber(number)) throw ApiError.invalid("customer_number", CONTACT_NUMBER_INVALID);
  const customerId = parsed.customer_id ?? null;
  // The contact is created unless the team already has one with that number or customer_id
  // (also when a concurrent insert of it won): that one is left as it is and named in the error.
  const [row] = await transaction((tx) => upsertContacts(tx, { teamId: ctx.teamId, keys: [{ number, customerId, name: parsed.name }] }));
  if (!row.created) throw duplicateError(row.customerNumber === number ? "customer_number" : "customer_id");
  return {
    id: row.id,
    name: row.name,
    customer_number: row.customerNumber,
    customer_id: row.customerId,
    labels: [],
    last_activity_at: null,
    marketing_opt_out: null,
  } satisfies ContactDto;
}

function duplicateError(field: "customer_number" | "customer_id") {
  return ApiError.invalid(field, field === "customer_number" ? CONTACT_NUMBER_TAKEN : CONTACT_CUSTOMER_ID_TAKEN);
}
