import fs from "node:fs";
import path from "node:path";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { config } from "@/lib/config";

/**
 * Channel credentials are encrypted at rest with AES-256-GCM. The key comes from
 * APP_ENCRYPTION_KEY; without it, on the embedded database only (one machine), a random key is
 * created once in the data folder, so nothing secret is ever stored in the clear. On a shared
 * database a key file would be private to one host and other replicas could not read what it
 * wrote, so there the key must be set (checked at start-up too, lib/config.ts).
 */
let cachedKey: Buffer | undefined;

function key(): Buffer {
  if (cachedKey) return cachedKey;
  let material = config.encryptionKey;
  if (!material) {
    if (config.databaseUrl) {
      throw new Error("APP_ENCRYPTION_KEY es obligatoria con DATABASE_URL: todas las réplicas y workers deben usar la misma clave.");
    }
    const file = path.join(config.dataDir, "secret.key");
    if (!fs.existsSync(file)) {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    }
    material = fs.readFileSync(file, "utf8").trim();
  }
  cachedKey = createHash("sha256").update(material).digest();
  return cachedKey;
}

export function encryptJson(value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(".");
}

export function decryptJson<T>(sealed: string): T {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1") throw new Error("Unknown secret format");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]);
  return JSON.parse(plain.toString("utf8")) as T;
}
