// The clarify tool (a question for the user) in an editor: a form when the editor offers
// elicitation, else a choice dialog through `session/request_permission` when the question has
// choices. Without either the model is told to ask in its reply, never left waiting.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { ClientCapabilities, PermissionOption } from "@agentclientprotocol/sdk/unstable";

export const NO_WAY_TO_ASK =
  "(no answer: this editor cannot show free-form questions; make a reasonable assumption, state it, and continue)";
export const DECLINED = "(the user declined to answer)";

export type Clarify = (
  question: string,
  choices: string[] | undefined,
  signal: AbortSignal,
  /** The clarify call asking (its id names the choice dialog). */
  callId?: string,
) => Promise<string>;

export function editorClarify(
  client: acp.AgentContext,
  caps: ClientCapabilities,
  sessionId: string,
): Clarify {
  return async (question, choices, signal, callId) => {
    const options = { cancellationSignal: signal, stopWaitingOnCancel: true };
    try {
      if (caps.elicitation?.form) {
        const res = await client.request(
          "elicitation/create",
          {
            sessionId,
            mode: "form",
            message: question,
            requestedSchema: {
              type: "object",
              properties: {
                answer: { type: "string", title: "Answer", ...(choices?.length ? { enum: choices } : {}) },
              },
              required: ["answer"],
            },
          },
          options,
        );
        // The response type also admits unknown future actions; only "accept" carries content.
        const accepted = res as { action: string; content?: Record<string, unknown> | null };
        const answer = accepted.action === "accept" ? accepted.content?.answer : undefined;
        return typeof answer === "string" && answer ? answer : DECLINED;
      }
      if (choices?.length) {
        const picks: PermissionOption[] = choices.map((c, i) => ({
          optionId: `choice_${i}`,
          name: c,
          kind: "allow_once",
        }));
        const res = await client.request(
          "session/request_permission",
          {
            sessionId,
            toolCall: { toolCallId: callId ?? "clarify", title: question, status: "pending" },
            options: [...picks, { optionId: "skip", name: "Skip", kind: "reject_once" }],
          },
          options,
        );
        const picked =
          res.outcome.outcome === "selected" ? /^choice_(\d+)$/.exec(res.outcome.optionId) : null;
        return picked ? (choices[Number(picked[1])] ?? DECLINED) : DECLINED;
      }
    } catch {
      return DECLINED; // cancelled, or the editor failed to answer
    }
    return NO_WAY_TO_ASK;
  };
}
