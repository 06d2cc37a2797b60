// The report: one ✓ / ! / ✗ line per finding, its fix indented below, a closing count.
import type { Finding } from "./types.js";

const MARK = { ok: "✓", warn: "!", fail: "✗" } as const;

export function formatReport(title: string, findings: readonly Finding[]): string {
  const lines = [title];
  for (const f of findings) {
    lines.push(`${MARK[f.status]} ${f.subject}: ${f.message}`);
    for (const d of f.details ?? []) lines.push(`    ${d}`);
    if (f.fix && f.status !== "ok") lines.push(`    fix: ${f.fix}`);
  }
  const failed = findings.filter((f) => f.status === "fail").length;
  const warned = findings.filter((f) => f.status === "warn").length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (failed === 0)
    lines.push(warned ? `all checks passed (${plural(warned, "warning")})` : "all checks passed");
  else lines.push(`${plural(failed, "problem")} found${warned ? `, ${plural(warned, "warning")}` : ""}`);
  return `${lines.join("\n")}\n`;
}

/** 0 when nothing failed, 1 otherwise (warnings do not count). */
export function exitCodeOf(findings: readonly Finding[]): number {
  return findings.some((f) => f.status === "fail") ? 1 : 0;
}
