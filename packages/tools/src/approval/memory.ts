// Approvals answered "for this session" (T4): owned by the session that asked, so they end with
// it — `/new`, `/resume` or another chat of the same gateway start with an empty memory.
export class ApprovalMemory {
  private readonly keys = new Set<string>();

  has(key: string): boolean {
    return this.keys.has(key);
  }

  remember(keys: Iterable<string>): void {
    for (const k of keys) this.keys.add(k);
  }

  /** What this session has approved, for display. */
  list(): string[] {
    return [...this.keys];
  }
}
