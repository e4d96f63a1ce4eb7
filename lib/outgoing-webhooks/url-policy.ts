import dns from "node:dns";
import type net from "node:net";
import { config } from "@/lib/config";
import { internalAddressKind, ipLiteralOf, isLocalhostName, type AddressKind } from "./address";

/**
 * Where bot and campaign webhooks may point (docs/operations.md, "Security"). A URL is refused when it is set
 * (`webhookUrlSchema`, so the admin CLI and any API) and again when a delivery is POSTed, after
 * DNS: `guardedLookup` checks every address a name resolves to and hands exactly those to the
 * socket, so a name cannot resolve outside at the check and inside at the connect (DNS rebinding).
 * `ALLOW_PRIVATE_WEBHOOK_URLS=1` lifts the address rule (tests, local development); credentials in
 * the URL are refused always (they would be sent in clear to wherever the URL points).
 */
export type WebhookUrlRefusal = { reason: "credentials" } | { reason: "internal"; host: string; address: string; kind: AddressKind };

/**
 * What is wrong with `url` before any lookup (credentials, an internal IP literal, and when it is
 * set, a `localhost` name), or null. At delivery names are left to `guardedLookup`, which sees what
 * they resolve to.
 */
export function webhookUrlRefusal(url: URL, { atDelivery = false } = {}): WebhookUrlRefusal | null {
  if (url.username || url.password) return { reason: "credentials" };
  if (config.allowPrivateWebhookUrls) return null;
  if (!atDelivery && isLocalhostName(url.hostname))
    return { reason: "internal", host: url.hostname, address: url.hostname, kind: "loopback" };
  const ip = ipLiteralOf(url);
  const kind = ip ? internalAddressKind(ip) : null;
  return ip && kind ? { reason: "internal", host: ip, address: ip, kind } : null;
}

const KIND_ES: Record<AddressKind, string> = {
  loopback: "local (loopback)",
  "link-local": "de enlace local (link-local)",
  private: "privada",
  reserved: "reservada",
};

/** The one-line Spanish message for a URL refused when it is set (`field`: the request's name for it). */
export function webhookUrlRefusalMessage(r: WebhookUrlRefusal, field = "webhook_url"): string {
  if (r.reason === "credentials") return `El campo ${field} no puede incluir usuario ni contraseña.`;
  return `El campo ${field} no puede apuntar a una dirección ${KIND_ES[r.kind]} (${r.address}); solo se admiten direcciones públicas.`;
}

/** A delivery refused by the address rule; its message is what `last_error` records. */
export class WebhookAddressRefused extends Error {
  readonly code = "ERR_WEBHOOK_ADDRESS_REFUSED";
  constructor(r: WebhookUrlRefusal) {
    super(
      r.reason === "credentials"
        ? "Refused: the webhook URL contains credentials"
        : `Refused: ${r.host === r.address ? r.address : `${r.host} resolves to ${r.address}`}, a ${r.kind} address (only public addresses are called; ALLOW_PRIVATE_WEBHOOK_URLS=1 allows internal ones)`,
    );
    this.name = "WebhookAddressRefused";
  }
}

/** The refusal inside an error that undici may have wrapped, if any. */
export function addressRefusalIn(err: unknown): WebhookAddressRefused | null {
  for (let e = err as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof WebhookAddressRefused) return e;
  }
  return null;
}

/**
 * `net.connect`'s `lookup`: resolves once, refuses the connection if any address is internal, and
 * otherwise returns those same addresses for the socket to connect to. The URL is untouched, so the
 * Host header and the TLS server name stay the name's. IP literals never reach a lookup (Node
 * connects to them directly): `webhookUrlRefusal` checks them before the request.
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", undefined);
    if (!config.allowPrivateWebhookUrls) {
      for (const a of addresses) {
        const kind = internalAddressKind(a.address);
        if (kind)
          return callback(new WebhookAddressRefused({ reason: "internal", host: hostname, address: a.address, kind }), "", undefined);
      }
    }
    if (options.all) callback(null, addresses);
    else if (addresses[0]) callback(null, addresses[0].address, addresses[0].family);
    else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "", undefined);
  });
};
