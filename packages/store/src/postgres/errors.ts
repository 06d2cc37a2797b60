// What a Postgres failure means to Iris: a StoreError with a code callers branch on and a message
// that names the server (user@host:port/database) but never its password.
import { StoreError, type StoreErrorCode } from "../errors.js";

/** user@host:port/database of a postgres:// URL, without the password. */
export function describeServer(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : "";
    return `${user}${u.hostname || "localhost"}:${u.port || "5432"}${u.pathname || "/"}`;
  } catch {
    return "the configured Postgres server";
  }
}

/** Driver errors by code: connection-level (node) and SQLSTATE classes (Postgres). */
function codeOf(err: { code?: unknown; message?: unknown }): StoreErrorCode | undefined {
  const code = String(err.code ?? "");
  if (["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "28P01", "28000", "3D000"].includes(code))
    return "db_unreachable";
  if (["ECONNRESET", "EPIPE", "57P01", "57P02", "57P03"].includes(code) || code.startsWith("08"))
    return "db_io";
  if (
    /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(
      String(err.message),
    )
  )
    return "db_io";
  if (code === "40001" || code === "40P01" || code === "55P03" || code === "57014") return "db_busy";
  if (code === "42501") return "db_readonly";
  return undefined;
}

export function pgError(err: unknown, server: string): unknown {
  if (err instanceof StoreError || typeof err !== "object" || err === null) return err;
  const code = codeOf(err as { code?: unknown; message?: unknown });
  if (!code) return err;
  const message = (err as Error).message || String((err as { code?: unknown }).code);
  return new StoreError(code, `Postgres (${server}): ${message}`);
}
