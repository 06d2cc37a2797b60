// `--verbose`: the lifecycle hooks (SPEC E5) as timestamped lines on stderr — model calls with
// latency and tokens, retries, fallbacks, tool executions and approvals. stdout is untouched.
import type { AgentEvents } from "@iris/host";

export function attachVerbose(events: AgentEvents, err: { write(s: string): unknown }): () => void {
  const t0 = Date.now();
  const log = (msg: string) => err.write(`[iris +${((Date.now() - t0) / 1000).toFixed(2)}s] ${msg}\n`);
  const offs = [
    events.on("llm_call_started", (e) => log(`model call ${e.stepId} → ${e.provider}/${e.model}`)),
    events.on("llm_call_ended", (e) => {
      const u = e.message.usage;
      log(
        `model call ${e.stepId} done in ${e.latencyMs} ms: ${u.inputTokens} in (${u.cacheReadTokens} cached), ` +
          `${u.outputTokens} out, stop ${e.message.stopReason}`,
      );
    }),
    events.on("llm_call_failed", (e) =>
      log(`model call ${e.stepId} failed: ${e.error.kind}: ${e.error.message}`),
    ),
    events.on("llm_call_retried", (e) =>
      log(`model call ${e.stepId} retry ${e.attempt} in ${e.delayMs} ms (${e.error.kind})`),
    ),
    events.on("fallback_activated", (e) => log(`fallback ${e.from} → ${e.to}: ${e.reason}`)),
    events.on("fallback_skipped", (e) => log(`fallback ${e.route} skipped: ${e.reason}`)),
    events.on("route_restored", (e) => log(`route restored ${e.from} → ${e.to}`)),
    events.on("tool_exec_started", (e) => log(`tool ${e.name} (${e.callId}) started`)),
    events.on("tool_exec_ended", (e) =>
      log(`tool ${e.name} (${e.callId}) ${e.isError ? "failed" : "ok"} in ${e.durationMs} ms`),
    ),
    events.on("tool_approval_requested", (e) => log(`approval asked: ${e.tool}: ${e.command} (${e.reason})`)),
    events.on("tool_approval_granted", (e) => log(`approval granted (${e.scope}): ${e.command}`)),
    events.on("tool_approval_denied", (e) => log(`approval denied: ${e.command} (${e.reason})`)),
    events.on("context_critical", (e) => log(`context critical: ${e.promptTokens} of ${e.limit} tokens`)),
    events.on("context_overflow_action", (e) => log(`context: ${e.action}: ${e.detail}`)),
    events.on("turn_completed", (e) => log(`turn ${e.taskId} ended: ${e.reason} after ${e.rounds} rounds`)),
  ];
  return () => {
    for (const off of offs) off();
  };
}
