// The cost view (SPEC F3): per call and per session, with the cache-hit share, so that a
// 3-round turn re-sending a 40K context shows as the 120K+ input tokens it is.

import type { SessionRow, SessionTotals, UsageRow } from "@iris/host";
import { lookupModel } from "@iris/llm";
import { shortId } from "../session-ref.js";

const n = (x: number) => x.toLocaleString("en-US");

/** Dollars with enough digits that a cheap call does not read as $0.0000. */
export function formatUsd(x: number): string {
  return `$${x.toFixed(x < 0.01 ? 5 : 4)}`;
}

/** cacheRead / input: input counts the whole prompt, cached parts included (see llm `Usage`). */
export function cacheHitShare(input: number, cacheRead: number): string {
  return input > 0 ? `${((100 * cacheRead) / input).toFixed(1)} %` : "–";
}

/** A zero cost on a model no catalogue knows is an unknown price, not a free call. */
export function costText(costUsd: number, provider: string | null, model: string | null): string {
  if (costUsd === 0 && provider && model && !lookupModel(provider, model).known) return "unknown";
  return formatUsd(costUsd);
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export function formatUsage(
  session: SessionRow,
  calls: readonly UsageRow[],
  opts: {
    perCall?: boolean /** Number of the first call shown (when only the last ones are). */;
    firstNumber?: number;
  } = {},
): string {
  const lines: string[] = [];
  if (opts.perCall !== false && calls.length) {
    lines.push(
      "  #  model                              input    cached     hit   output  reason.     cost  latency",
    );
    calls.forEach((c, i) => {
      lines.push(
        [
          String(i + (opts.firstNumber ?? 1)).padStart(3),
          ` ${`${c.provider}/${c.model}`.slice(0, 32).padEnd(32)}`,
          n(c.inputTokens).padStart(9),
          n(c.cacheReadTokens).padStart(9),
          cacheHitShare(c.inputTokens, c.cacheReadTokens).padStart(7),
          n(c.outputTokens).padStart(8),
          n(c.reasoningTokens).padStart(8),
          costText(c.costUsd, c.provider, c.model).padStart(9),
          `${c.latencyMs} ms`.padStart(9),
          c.status === "ok" ? "" : ` ${c.status}`,
        ]
          .join(" ")
          .trimEnd(),
      );
    });
  }
  lines.push(
    `session ${shortId(session.id)}: ${n(session.apiCalls)} API calls · input ${n(session.inputTokens)} tokens ` +
      `(cache read ${n(session.cacheReadTokens)}, ${cacheHitShare(session.inputTokens, session.cacheReadTokens)} hit; ` +
      `cache write ${n(session.cacheWriteTokens)}) · output ${n(session.outputTokens)} (reasoning ${n(session.reasoningTokens)}) · ` +
      `cost ${costText(session.costUsd, session.provider, session.model)}`,
  );
  return `${lines.join("\n")}\n`;
}

function sumTotals(sessions: readonly SessionTotals[]): SessionTotals {
  const t: SessionTotals = {
    apiCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
  };
  for (const s of sessions) {
    t.apiCalls += s.apiCalls;
    t.inputTokens += s.inputTokens;
    t.outputTokens += s.outputTokens;
    t.cacheReadTokens += s.cacheReadTokens;
    t.cacheWriteTokens += s.cacheWriteTokens;
    t.reasoningTokens += s.reasoningTokens;
    t.costUsd += s.costUsd;
  }
  return t;
}

function totalsColumns(t: SessionTotals, cost = formatUsd(t.costUsd)): string {
  return [
    n(t.apiCalls).padStart(6),
    n(t.inputTokens).padStart(12),
    cacheHitShare(t.inputTokens, t.cacheReadTokens).padStart(8),
    n(t.outputTokens).padStart(10),
    cost.padStart(10),
  ].join(" ");
}

/** One line per session (newest first, as given) and a total line over them. */
export function formatSessionsUsage(sessions: readonly SessionRow[]): string {
  if (!sessions.length) return "no sessions yet\n";
  const lines = [
    `${"session".padEnd(8)}  ${"started".padEnd(16)}  ${"provider/model".padEnd(32)} ${"calls".padStart(6)} ` +
      `${"input".padStart(12)} ${"cached".padStart(8)} ${"output".padStart(10)} ${"cost".padStart(10)}`,
  ];
  for (const s of sessions) {
    const route = `${s.provider ?? "?"}/${s.model ?? "?"}`.slice(0, 32).padEnd(32);
    lines.push(
      `${shortId(s.id)}  ${when(s.startedAt)}  ${route} ${totalsColumns(s, costText(s.costUsd, s.provider, s.model))}`,
    );
  }
  const label = `total (${sessions.length} session${sessions.length === 1 ? "" : "s"})`;
  const total = sumTotals(sessions);
  const unknown = sessions.some((s) => costText(s.costUsd, s.provider, s.model) === "unknown");
  const totalCost = unknown
    ? `${total.costUsd ? formatUsd(total.costUsd) : "$0"}+unknown`
    : formatUsd(total.costUsd);
  lines.push(`${label.padEnd(8 + 2 + 16 + 2 + 32)} ${totalsColumns(total, totalCost)}`);
  return `${lines.join("\n")}\n`;
}
