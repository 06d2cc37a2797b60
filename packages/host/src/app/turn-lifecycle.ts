// The lifecycle hooks (SPEC E5) as turn changes: model-call failures and retries, route moves,
// approvals and context pressure. They change nothing in the turn's picture; a front end that
// logs or notes them (the CLI's `--verbose`) reads them here, not from the raw events.
import type { HostEvent } from "./events.js";
import type { TurnChange } from "./turn-change.js";

export function lifecycleChange(e: HostEvent): TurnChange | undefined {
  switch (e.name) {
    case "llm_call_failed":
      return {
        kind: "call_failed",
        stepId: e.payload.stepId,
        errorKind: e.payload.error.kind,
        message: e.payload.error.message,
      };
    case "llm_call_retried": {
      const { stepId, attempt, delayMs, error } = e.payload;
      return { kind: "retry", stepId, attempt, delayMs, errorKind: error.kind };
    }
    case "fallback_activated":
      return { kind: "route", phase: "fallback", ...e.payload };
    case "fallback_skipped":
      return { kind: "route", phase: "skipped", ...e.payload };
    case "route_restored":
      return { kind: "route", phase: "restored", ...e.payload };
    case "tool_approval_requested":
      return { kind: "approval", phase: "asked", ...e.payload };
    case "tool_approval_granted":
      return { kind: "approval", phase: "granted", ...e.payload };
    case "tool_approval_denied":
      return { kind: "approval", phase: "denied", ...e.payload };
    case "context_critical":
      return { kind: "context", phase: "critical", ...e.payload };
    case "context_overflow_action":
      return { kind: "context", phase: "action", ...e.payload };
    default:
      return undefined;
  }
}
