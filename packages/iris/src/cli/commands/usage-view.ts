// The cost view (SPEC F3): per call and per session, with the cache-hit share, so that a
// 3-round turn re-sending a 40K context shows as the 120K+ input tokens it is.
import type { SessionRow, UsageRow } from "@iris/store";

const n = (x: number) => x.toLocaleString("en-US");
const usd = (x: number) => `$${x.toFixed(x < 0.01 ? 5 : 4)}`;

export function cacheHitShare(input: number, cacheRead: number): string {
  return input > 0 ? `${((100 * cacheRead) / input).toFixed(1)} %` : "–";
}

export function formatUsage(
  session: SessionRow,
  calls: readonly UsageRow[],
  opts: { perCall?: boolean } = {},
): string {
  const lines: string[] = [];
  if (opts.perCall !== false && calls.length) {
    lines.push("  #  model                              input    cached   output  reason.     cost  latency");
    calls.forEach((c, i) => {
      lines.push(
        [
          String(i + 1).padStart(3),
          ` ${`${c.provider}/${c.model}`.slice(0, 32).padEnd(32)}`,
          n(c.inputTokens).padStart(9),
          n(c.cacheReadTokens).padStart(9),
          n(c.outputTokens).padStart(8),
          n(c.reasoningTokens).padStart(8),
          usd(c.costUsd).padStart(9),
          `${c.latencyMs} ms`.padStart(9),
        ].join(" "),
      );
    });
  }
  lines.push(
    `session ${session.id.slice(0, 8)}: ${n(session.apiCalls)} API calls · input ${n(session.inputTokens)} tokens ` +
      `(cache read ${n(session.cacheReadTokens)}, ${cacheHitShare(session.inputTokens, session.cacheReadTokens)} hit; ` +
      `cache write ${n(session.cacheWriteTokens)}) · output ${n(session.outputTokens)} (reasoning ${n(session.reasoningTokens)}) · ` +
      `cost ${usd(session.costUsd)}`,
  );
  return `${lines.join("\n")}\n`;
}
