// The few edits Iris makes to config.yaml on the user's behalf, keeping their comments.
import { existsSync, readFileSync } from "node:fs";
import { setConfigValue } from "../config/index.js";
import { yaml } from "../config/yaml-lib.js";

/** The "always" approval answer: the pattern key joins approvals.allow (SPEC T4). */
export function appendAllowedPattern(configPath: string, key: string): void {
  const current = existsSync(configPath)
    ? (yaml().parse(readFileSync(configPath, "utf8")) as Record<string, unknown> | null)
    : null;
  const approvals = (current?.approvals ?? {}) as { allow?: unknown };
  const allow = Array.isArray(approvals.allow) ? approvals.allow.map(String) : [];
  if (allow.includes(key)) return;
  setConfigValue(configPath, ["approvals", "allow"], [...allow, key]);
}
