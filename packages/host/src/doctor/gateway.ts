// One gateway per profile (SPEC K3, U3): two would answer every message twice.
import { readFileSync } from "node:fs";
import type { Finding, Probe } from "./types.js";

/** A pid file holds the number alone or JSON with a `pid` field. */
export function parsePidFile(text: string): number | undefined {
  const trimmed = text.trim();
  let value: unknown = trimmed;
  if (trimmed.startsWith("{")) {
    try {
      value = (JSON.parse(trimmed) as { pid?: unknown }).pid;
    } catch {
      return undefined;
    }
  }
  const pid = typeof value === "number" ? value : /^\d+$/.test(String(value)) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

export function checkGateway(
  probe: Probe,
  pidPath: string,
  read: (path: string) => string = (p) => readFileSync(p, "utf8"),
): Finding {
  const subject = "gateway";
  if (!probe.stat(pidPath)) return { status: "ok", subject, message: "none running on this profile" };
  let text: string;
  try {
    text = read(pidPath);
  } catch (err) {
    return {
      status: "fail",
      subject,
      message: `${pidPath} cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"}): a second gateway could not tell that one runs`,
      fix: `chown ${probe.uid ?? "$(id -u)"} ${pidPath}`,
    };
  }
  const pid = parsePidFile(text);
  if (pid === undefined)
    return {
      status: "warn",
      subject,
      message: `${pidPath} holds no process id`,
      fix: `rm ${pidPath}`,
    };
  if (pid === probe.selfPid) return { status: "ok", subject, message: `this process (pid ${pid})` };
  if (!probe.processAlive(pid))
    return {
      status: "warn",
      subject,
      message: `stale ${pidPath}: process ${pid} is gone`,
      fix: `rm ${pidPath}`,
    };
  return {
    status: "fail",
    subject,
    message: `a gateway already runs on this profile (pid ${pid}); a second one would answer every message twice`,
    fix: `use the running gateway, or stop it first: kill ${pid}`,
  };
}
