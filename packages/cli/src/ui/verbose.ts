// `--verbose`: the lifecycle hooks (SPEC E5) as timestamped lines on stderr — model calls with
// latency and tokens, retries, fallbacks, tool executions and approvals — as the turn view
// reports them (turn-feed.ts). stdout is untouched.
import type { TurnChange } from "@iris/host";
import type { TurnFeed } from "./turn-feed.js";

export function attachVerbose(feed: TurnFeed, err: { write(s: string): unknown }): () => void {
  const t0 = Date.now();
  const log = (msg: string) => err.write(`[iris +${((Date.now() - t0) / 1000).toFixed(2)}s] ${msg}\n`);
  return feed.on((c) => {
    const line = verboseLine(c);
    if (line !== undefined) log(line);
  });
}

function verboseLine(c: TurnChange): string | undefined {
  switch (c.kind) {
    case "waiting":
      // Only a call's start names its step; the waits after it are progress's business.
      return c.stepId !== undefined ? `model call ${c.stepId} → ${c.provider}/${c.model}` : undefined;
    case "usage": {
      const u = c.call;
      return (
        `model call ${c.stepId} done in ${c.latencyMs} ms: ${u.inputTokens} in (${u.cacheReadTokens} cached), ` +
        `${u.outputTokens} out, stop ${c.stopReason}`
      );
    }
    case "call_failed":
      return `model call ${c.stepId} failed: ${c.errorKind}: ${c.message}`;
    case "retry":
      return `model call ${c.stepId} retry ${c.attempt} in ${c.delayMs} ms (${c.errorKind})`;
    case "route":
      if (c.phase === "fallback") return `fallback ${c.from} → ${c.to}: ${c.reason}`;
      if (c.phase === "skipped") return `fallback ${c.route} skipped: ${c.reason}`;
      return `route restored ${c.from} → ${c.to}`;
    case "tool":
      if (c.phase === "before") return `tool ${c.call.name} (${c.call.callId}) started`;
      if (c.phase !== "after") return undefined;
      return `tool ${c.call.name} (${c.call.callId}) ${c.isError ? "failed" : "ok"} in ${c.call.durationMs ?? "?"} ms`;
    case "approval":
      if (c.phase === "asked") return `approval asked: ${c.tool}: ${c.command} (${c.reason})`;
      if (c.phase === "granted") return `approval granted (${c.scope}): ${c.command}`;
      return `approval denied: ${c.command} (${c.reason})`;
    case "context":
      return c.phase === "critical"
        ? `context critical: ${c.promptTokens} of ${c.limit} tokens`
        : `context: ${c.action}: ${c.detail}`;
    case "ended":
      return `turn ${c.taskId} ended: ${c.reason} after ${c.rounds} rounds`;
    default:
      return undefined;
  }
}
