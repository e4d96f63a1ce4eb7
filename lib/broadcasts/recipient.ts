import type { FieldErrors } from "@/lib/http/errors";
import { isValidNumber } from "@/lib/phone";
import { DESTINATION_INVALID, buttonValueFormat, paramValueFormat } from "@/lib/messages/send-schemas";
import { COLUMN_RE, type BroadcastParam, type ContactColumn } from "./schemas";

export const paramEmptyFor = (key: string, columns: string[]) =>
  columns.length
    ? `El parámetro {{${key}}} queda vacío para este contacto: ${columns.map((c) => `{{${c}}}`).join(", ")} no tiene valor.`
    : `El parámetro {{${key}}} queda vacío para este contacto.`;
export const paramTooLongFor = (key: string) => `El parámetro {{${key}}} supera los 1024 caracteres para este contacto.`;
export const buttonEmptyFor = (index: number, columns: string[]) =>
  `El valor del botón ${index} queda vacío para este contacto: ${columns.map((c) => `{{${c}}}`).join(", ")} no tiene valor.`;
export const buttonTooLongFor = (index: number) => `El valor del botón ${index} supera los 1024 caracteres para este contacto.`;

const BAD_PARAM_TEXT = /[\n\t]| {5,}/;

export type RecipientContact = { id: number; name: string; customer_number: string; customer_id: string | null };
export type ButtonParam = { index: number; value: string };
export type FilledParams = {
  header_param: { key: string; value: string } | null;
  body_params: { key: string; value: string }[];
  button_params?: ButtonParam[];
};

/** Whether any value uses a contact column (else every recipient gets the same values and payload). */
export function usesColumns(params: FilledParams): boolean {
  const values = [
    params.header_param?.value ?? "",
    ...params.body_params.map((p) => p.value),
    ...(params.button_params ?? []).map((b) => b.value),
  ];
  return values.some((v) => new RegExp(COLUMN_RE.source).test(v));
}

function columnValue(contact: RecipientContact, column: ContactColumn): string {
  if (column === "name") return contact.name ?? "";
  if (column === "customer_id") return contact.customer_id ?? "";
  return contact.customer_number;
}

function fill(contact: RecipientContact, value: string): { value: string; empty: string[] } {
  const empty: string[] = [];
  const filled = value.replace(COLUMN_RE, (_whole, column: ContactColumn) => {
    const v = columnValue(contact, column).trim();
    if (!v) empty.push(column);
    return v;
  });
  return { value: filled, empty };
}

/**
 * One recipient's parameters with its contact's columns written in, checked as a single send
 * would check them (4.1): a valid number, and every value non-blank, at most 1024 characters and
 * free of what the channel refuses. Errors are keyed by field like a 422 of /send.
 */
export function fillRecipient(
  contact: RecipientContact,
  params: { header_param: BroadcastParam | null; body_params: BroadcastParam[]; button_params?: ButtonParam[] },
): { params: FilledParams } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!isValidNumber(contact.customer_number)) add("destination", DESTINATION_INVALID);
  const one = (field: string, p: BroadcastParam) => {
    const { value, empty } = fill(contact, p.value);
    if (!value.trim()) add(`${field}.value`, paramEmptyFor(p.key, empty));
    else if (value.length > 1024) add(`${field}.value`, paramTooLongFor(p.key));
    else if (BAD_PARAM_TEXT.test(value)) add(`${field}.value`, paramValueFormat(p.key));
    return { key: p.key, value };
  };
  const header_param = params.header_param ? one("header_param", params.header_param) : null;
  const body_params = params.body_params.map((p, i) => one(`body_params.${i}`, p));
  // A button's value goes into a link: filled, it must still be non-blank and free of whitespace.
  const button_params = (params.button_params ?? []).map((b, i) => {
    const { value, empty } = fill(contact, b.value);
    if (!value) add(`button_params.${i}.value`, buttonEmptyFor(b.index, empty));
    else if (value.length > 1024) add(`button_params.${i}.value`, buttonTooLongFor(b.index));
    else if (/\s/.test(value)) add(`button_params.${i}.value`, buttonValueFormat(b.index));
    return { index: b.index, value };
  });
  if (Object.keys(errors).length) return { errors };
  return { params: { header_param, body_params, ...(button_params.length ? { button_params } : {}) } };
}

/** The first reason of a rejected recipient, for the CSV and the list. */
export function firstReason(errors: FieldErrors): string {
  for (const messages of Object.values(errors)) if (messages[0]) return messages[0];
  return "";
}
