// Iris's dangerous-command approval (SPEC T4) as the editor's `session/request_permission`.
// Each request names the tool call it is about, so rejecting one call rejects only that call; the
// rest of the batch goes on. A turn that is cancelled stops waiting at once (the pending request
// is withdrawn with `$/cancel_request`) and the call is denied.
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

/** One session's approvals: the editor is asked; "reject for this session" is remembered here. */
export class EditorApprovals {
  private readonly rejected = new Set<string>();

  constructor(
    private readonly ask: AskEditor,
    /** The id of the in-progress call of this tool the request is about (oldest first). */
    private readonly callIdFor: (tool: string) => string | undefined,
    /** Iris denies an unanswered approval after this long; the editor's dialog is withdrawn then too. */
    private readonly timeoutMs: number,
  ) {}

  async approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const keys = request.patternKeys?.length ? request.patternKeys : [request.patternKey];
    if (keys.some((k) => this.rejected.has(k))) return "deny";
    if (signal.aborted) return "deny";
    const toolCallId = this.callIdFor(request.tool) ?? `approval:${request.tool}`;
    // Withdrawn ($/cancel_request) when the turn is cancelled or Iris stops waiting, so no
    // permission dialog outlives the question.
    const withdraw = new AbortController();
    const onAbort = () => withdraw.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(onAbort, this.timeoutMs);
    let response: RequestPermissionResponse;
    try {
      response = await this.ask(
        {
          toolCallId,
          title: `${request.command} — ${request.reason}`,
          status: "pending",
          rawInput: { command: request.command, reason: request.reason },
        },
        withdraw.signal,
      );
    } catch {
      return "deny"; // cancelled, or the editor failed to answer: a failed approval denies
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
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
        for (const k of keys) this.rejected.add(k);
        return "deny";
      default:
        return "deny";
    }
  }
}
