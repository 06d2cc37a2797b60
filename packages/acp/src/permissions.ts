// Iris's dangerous-command approval (SPEC T4) as the editor's `session/request_permission`.
// Each request names the tool call it is about (the request's callId, so two parallel calls of
// one tool get two dialogs with their own ids), so rejecting one call rejects only that call; the
// rest of the batch goes on. A question the session withdraws (the policy's timeout, a cancelled
// turn) stops waiting at once (the pending request is withdrawn with `$/cancel_request`) and the
// call is denied. acp-session.ts shows them from the session's ask events (answerAsks).
import type {
  PermissionOption,
  RequestPermissionResponse,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk/unstable";
import type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";

export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_session", name: "Allow for this session", kind: "allow_always" },
  { optionId: "allow_always", name: "Always allow (saved in config.yaml)", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  { optionId: "reject_always", name: "Reject for this session", kind: "reject_always" },
];

export type AskEditor = (toolCall: ToolCallUpdate, signal: AbortSignal) => Promise<RequestPermissionResponse>;

/**
 * One session's approvals as the editor's permission dialogs. The dialog is keyed to the call the
 * request is about (its `callId`). Iris's approval policy owns the timeout (the session withdraws
 * the question: `signal`) and the session's ApprovalMemory the "reject for this session".
 */
export class EditorApprovals {
  constructor(private readonly ask: AskEditor) {}

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (signal.aborted) return "deny";
    const toolCallId = request.callId ?? `approval:${request.tool}`;
    let response: RequestPermissionResponse;
    try {
      // Withdrawn ($/cancel_request) when the turn is cancelled or Iris stops waiting, so no
      // permission dialog outlives the question.
      response = await this.ask(
        {
          toolCallId,
          title: `${request.command} — ${request.reason}`,
          status: "pending",
          rawInput: { command: request.command, reason: request.reason },
        },
        signal,
      );
    } catch {
      return "deny"; // cancelled, or the editor failed to answer: a failed approval denies
    }
    const outcome = response.outcome;
    if (outcome.outcome !== "selected") return "deny";
    switch (outcome.optionId) {
      case "allow_once":
        return "once";
      case "allow_session":
        return "session";
      case "allow_always":
        return "always";
      case "reject_always":
        return "deny_session";
      default:
        return "deny";
    }
  }
}
