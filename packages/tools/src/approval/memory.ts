// Approvals answered "for this session" (T4): owned by the session that asked, so they end with
// it — `/new`, `/resume` or another chat of the same gateway start with an empty memory.
// It also holds the tools an active skill pre-approves (its `allowed_tools`, K4): a profile skill
// the model loaded with skill_view lets those tools run without a question for the rest of the
// session. Hard blocks still apply; nothing else is widened.
export class ApprovalMemory {
  private readonly keys = new Set<string>();
  /** Tool name → the skill that pre-approved it. */
  private readonly toolsBySkill = new Map<string, string>();

  /** Patterns the user denied "for this session": denied unasked until the session ends. */
  private readonly rejectedKeys = new Set<string>();

  has(key: string): boolean {
    return this.keys.has(key);
  }

  reject(keys: Iterable<string>): void {
    for (const k of keys) this.rejectedKeys.add(k);
  }

  isRejected(key: string): boolean {
    return this.rejectedKeys.has(key);
  }

  remember(keys: Iterable<string>): void {
    for (const k of keys) this.keys.add(k);
  }

  /** A skill became active: its `allowed_tools` run without asking from now on in this session. */
  preapproveTools(skill: string, tools: Iterable<string>): void {
    for (const t of tools) if (!this.toolsBySkill.has(t)) this.toolsBySkill.set(t, skill);
  }

  /** The active skill that pre-approved `tool`, if any. */
  preapprovedBy(tool: string): string | undefined {
    return this.toolsBySkill.get(tool);
  }

  /** What this session has approved, for display. */
  list(): string[] {
    return [...this.keys, ...[...this.toolsBySkill].map(([tool, skill]) => `${tool} (skill ${skill})`)];
  }
}
