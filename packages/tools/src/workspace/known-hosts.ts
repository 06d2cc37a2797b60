// Host keys checked against an OpenSSH known_hosts file (no trust on first use): plain entries
// (`host`, `[host]:port`, comma lists) and hashed ones (`|1|salt|hmac`), `@revoked` refused,
// other markers (`@cert-authority`) skipped.
import { createHmac } from "node:crypto";

interface Entry {
  patterns: string[];
  key: Buffer;
  revoked: boolean;
}

function parse(text: string): Entry[] {
  const out: Entry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fields = line.split(/\s+/);
    let revoked = false;
    if (fields[0]?.startsWith("@")) {
      if (fields[0] !== "@revoked") continue;
      revoked = true;
      fields.shift();
    }
    const [hosts, , key] = fields;
    if (!hosts || !key) continue;
    out.push({ patterns: hosts.split(","), key: Buffer.from(key, "base64"), revoked });
  }
  return out;
}

function hostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function matches(pattern: string, name: string): boolean {
  if (pattern.startsWith("|1|")) {
    const [, , salt, hash] = pattern.split("|");
    if (!salt || !hash) return false;
    return createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64") === hash;
  }
  return pattern === name;
}

export type HostKeyVerdict = "known" | "unknown" | "mismatch" | "revoked";

/** Whether `key` (the raw public key blob the server sent) is the one known for host:port. */
export function checkHostKey(knownHosts: string, host: string, port: number, key: Buffer): HostKeyVerdict {
  const name = hostName(host, port);
  const entries = parse(knownHosts).filter((e) => e.patterns.some((p) => matches(p, name)));
  if (entries.some((e) => e.revoked && e.key.equals(key))) return "revoked";
  if (entries.some((e) => !e.revoked && e.key.equals(key))) return "known";
  return entries.length ? "mismatch" : "unknown";
}
