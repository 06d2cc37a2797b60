// `--verbose`: the lifecycle hooks (SPEC E5) as timestamped lines on stderr — model calls with
// latency and tokens, retries, fallbacks, tool executions and approvals. stdout is untouched.
import type { AgentEvents } from "@iris/host";

export function attachVerbose(events: AgentEvents, err: { write(s: string): unknown }): () => void {
  const t0 = Date.now();
  const log = (msg: string) => err.write(`[iris +${((Date.now() - t0) / 1000).toFixed(2)}s] ${msg}\n`);
  const offs = [
    events.on("LLM_CALL_STARTED", (e) => log(`model call ${e.stepId} → ${e.provider}/${e.model}`)),
    events.on("LLM_CALL_ENDED", (e) => {
      const u = e.message.usage;
      log(
        `model call ${e.stepId} done in ${e.latencyMs} ms: ${u.inputTokens} in (${u.cacheReadTokens} cached), ` +
          `${u.outputTokens} out, stop ${e.message.stopReason}`,
      );
    }),
    events.on("LLM_CALL_FAILED", (e) =>
      log(`model call ${e.stepId} failed: ${e.error.kind}: ${e.error.message}`),
    ),
    events.on("LLM_CALL_RETRIED", (e) =>
      log(`model call ${e.stepId} retry ${e.attempt} in ${e.delayMs} ms (${e.error.kind})`),
    ),
    events.on("FALLBACK_ACTIVATED", (e) => log(`fallback ${e.from} → ${e.to}: ${e.reason}`)),
    events.on("FALLBACK_SKIPPED", (e) => log(`fallback ${e.route} skipped: ${e.reason}`)),
    events.on("ROUTE_RESTORED", (e) => log(`route restored ${e.from} → ${e.to}`)),
    events.on("TOOL_EXEC_STARTED", (e) => log(`tool ${e.name} (${e.callId}) started`)),
    events.on("TOOL_EXEC_ENDED", (e) =>
      log(`tool ${e.name} (${e.callId}) ${e.isError ? "failed" : "ok"} in ${e.durationMs} ms`),
    ),
    events.on("TOOL_APPROVAL_REQUESTED", (e) => log(`approval asked: ${e.tool}: ${e.command} (${e.reason})`)),
    events.on("TOOL_APPROVAL_GRANTED", (e) => log(`approval granted (${e.scope}): ${e.command}`)),
    events.on("TOOL_APPROVAL_DENIED", (e) => log(`approval denied: ${e.command} (${e.reason})`)),
    events.on("CONTEXT_CRITICAL", (e) => log(`context critical: ${e.promptTokens} of ${e.limit} tokens`)),
    events.on("CONTEXT_OVERFLOW_ACTION", (e) => log(`context: ${e.action}: ${e.detail}`)),
    events.on("TURN_COMPLETED", (e) => log(`turn ${e.taskId} ended: ${e.reason} after ${e.rounds} rounds`)),
  ];
  return () => {
    for (const off of offs) off();
  };
}
