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
    this.pending = undefined;
  }

  /** A lower mode asked for while a turn runs, applied when it ends. */
  private pending: ApprovalMode | undefined;

  /**
   * Switches the mode; one that asks less (manual → smart → off) waits for the turn to end, so
   * nothing inside a turn lowers the approval mode it runs under. Returns whether it applied now.
   */
  request(mode: ApprovalMode, turnRunning: boolean): boolean {
    if (!APPROVAL_MODES.includes(mode))
      throw new Error(`unknown approval mode '${mode}' (manual, smart, off)`);
    if (turnRunning && APPROVAL_MODES.indexOf(mode) > APPROVAL_MODES.indexOf(this.current)) {
      this.pending = mode;
      return false;
    }
    this.mode = mode;
    return true;
  }

  /** The turn ended: a lower mode asked for during it applies now. */
  turnEnded(): void {
    if (this.pending !== undefined) this.mode = this.pending;
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
