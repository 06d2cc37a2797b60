// A session's spend in one line (chat replies have no room for the CLI's table).
import type { UsageRow } from "@iris/store";

export function formatUsageLine(rows: readonly UsageRow[]): string {
  let input = 0;
  let output = 0;
  let cached = 0;
  let cost = 0;
  for (const r of rows) {
    input += r.inputTokens;
    output += r.outputTokens;
    cached += r.cacheReadTokens;
    cost += r.costUsd;
  }
  const share = input > 0 ? Math.round((cached / input) * 100) : 0;
  return `${rows.length} calls · ${input} in (${share} % cached) · ${output} out · $${cost.toFixed(4)}`;
}
