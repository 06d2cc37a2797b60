// A session's approval policy whose mode can change while the session lives (an editor's mode
// picker: manual, smart, off). Each mode's policy is made on first use from the process's rules;
// what the user approved "for this session" lives in the session's approval memory, so it holds
// in every mode, and so do the hard blocks.
import type {
  ApprovalDecision,
  ApprovalMode,
  ApprovalPolicy,
  FileAccessCheck,
  ToolContext,
} from "@iris/tools";

export const APPROVAL_MODES: readonly ApprovalMode[] = ["manual", "smart", "off"];

export class SwitchablePolicy implements ApprovalPolicy {
  private readonly byMode = new Map<ApprovalMode, ApprovalPolicy>();

  constructor(
    private readonly make: (mode: ApprovalMode) => ApprovalPolicy,
    private current: ApprovalMode,
  ) {}

  get mode(): ApprovalMode {
    return this.current;
  }

  set mode(mode: ApprovalMode) {
    if (!APPROVAL_MODES.includes(mode))
      throw new Error(`unknown approval mode '${mode}' (manual, smart, off)`);
    this.current = mode;
  }

  check(
    tool: { name: string },
    subject: string,
    ctx: ToolContext,
    required?: readonly { key: string; description: string }[],
    access?: readonly FileAccessCheck[],
  ): Promise<ApprovalDecision> {
    let policy = this.byMode.get(this.current);
    if (!policy) {
      policy = this.make(this.current);
      this.byMode.set(this.current, policy);
    }
    // `required`: the rules a tool asks approval under whatever its subject (MCP tools, skill_manage).
    return policy.check(tool, subject, ctx, required, access);
  }
}
