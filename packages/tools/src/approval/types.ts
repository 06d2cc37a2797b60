// The approval policy as the dispatcher sees it (T4).
import type { ApprovalAnswer, ApprovalRequest, ToolContext } from "../define.js";
import type { FileAccessCheck } from "./file-access.js";

export type ApprovalMode = "manual" | "smart" | "off";

export type ApprovalDecision = { allowed: true } | { allowed: false; reason: string };

export interface ApprovalPolicy {
  /**
   * Whether `subject` (e.g. a shell command) given to `tool` may run now. Never throws.
   * `required`: rules the call needs approval under whatever the subject says (MCP tools).
   * `access`: the files a file tool reads or writes; judged instead of `subject` as a command.
   */
  check(
    tool: { name: string },
    subject: string,
    ctx: ToolContext,
    required?: readonly { key: string; description: string }[],
    access?: readonly FileAccessCheck[],
  ): Promise<ApprovalDecision>;
}

/** The auxiliary model's verdict in smart mode. */
export type JudgeVerdict = "approve" | "deny" | "escalate";
export type ApprovalJudge = (request: ApprovalRequest) => Promise<JudgeVerdict>;

/** What happened, for hooks and logs (tool_approval_requested / granted / denied). */
export type ApprovalEvent =
  | { type: "blocked"; request: ApprovalRequest }
  | { type: "requested"; request: ApprovalRequest; by: "user" | "judge" }
  | {
      type: "granted";
      request: ApprovalRequest;
      by: "user" | "judge" | "remembered" | "off" | "non-interactive" | "skill" | "sandbox";
      answer?: ApprovalAnswer;
      /** by "skill": the active skill whose `allowed_tools` names the tool. */
      skill?: string;
    }
  | {
      type: "denied";
      request: ApprovalRequest;
      by: "user" | "judge" | "timeout" | "non-interactive" | "remembered";
    };
