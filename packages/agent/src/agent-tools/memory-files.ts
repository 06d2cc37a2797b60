// MEMORY.md and USER.md with character limits (SPEC T5, U6). Writes reach the disk at once; the
// prompt shows the snapshot taken at session start, so a write appears in the next session (S2).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export const ENTRY_SEPARATOR = "\n§\n";
export const MEMORY_LIMITS = { memory: 2200, user: 1375 } as const;
export type MemoryTarget = keyof typeof MEMORY_LIMITS;

export class MemoryFiles {
  constructor(
    private readonly paths: Record<MemoryTarget, string>,
    private readonly limits: Record<MemoryTarget, number> = MEMORY_LIMITS,
  ) {}

  read(target: MemoryTarget): string {
    try {
      return readFileSync(this.paths[target], "utf8");
    } catch {
      return "";
    }
  }

  entries(target: MemoryTarget): string[] {
    return this.read(target)
      .split(ENTRY_SEPARATOR)
      .map((e) => e.trim())
      .filter(Boolean);
  }

  /** Applies one edit; returns a message for the model, or throws an Error naming the problem. */
  apply(
    action: "add" | "replace" | "remove",
    target: MemoryTarget,
    content?: string,
    oldText?: string,
  ): string {
    const entries = this.entries(target);
    const limit = this.limits[target];
    let next: string[];
    if (action === "add") {
      if (!content?.trim()) throw new Error("add needs content");
      next = [...entries, content.trim()];
    } else {
      if (!oldText) throw new Error(`${action} needs old_text: a unique snippet of the entry`);
      const hits = entries.filter((e) => e.includes(oldText));
      if (hits.length === 0) throw new Error(`no ${target} entry contains "${oldText}"`);
      if (hits.length > 1)
        throw new Error(`"${oldText}" matches ${hits.length} ${target} entries; give a longer snippet`);
      if (action === "replace") {
        if (!content?.trim()) throw new Error("replace needs content");
        next = entries.map((e) => (e === hits[0] ? content.trim() : e));
      } else next = entries.filter((e) => e !== hits[0]);
    }
    const text = next.join(ENTRY_SEPARATOR);
    const used = this.read(target).length;
    if (text.length > limit)
      throw new Error(
        `${target} is limited to ${limit} characters; it holds ${used} and this write would make ${text.length}. Remove or shorten entries first.`,
      );
    const path = this.paths[target];
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, text ? `${text}\n` : "");
    renameSync(tmp, path);
    return `${action} done: ${target} now uses ${text.length} of ${limit} characters (shown from the next session on).`;
  }
}
