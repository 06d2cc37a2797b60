// The outside trial's classes (corpus/classes.json) through the real policy: manual mode, nobody
// to approve. Each command is hard-blocked, asked about, or run unasked as its group expects;
// `everyMode` groups (credentials, Iris's own configuration) are asked about in mode off too.
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, ToolContext } from "../define.js";
import { localWorkspace } from "../workspace/local.js";
import { CLASSES, EVERYDAY } from "./corpus/corpus.js";
import { createApprovalPolicy } from "./policy.js";
import type { ApprovalMode } from "./types.js";

const home = "/home/alice";
const cwd = "/home/alice/proj";

async function outcome(command: string, mode: ApprovalMode): Promise<"block" | "ask" | "run"> {
  const policy = createApprovalPolicy({ mode, home, profile: `${home}/.iris` });
  const asked: ApprovalRequest[] = [];
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    taskId: "t",
    workspace: localWorkspace(),
    cwd,
    progress: () => {},
    approve: async (r) => {
      asked.push(r);
      return "deny";
    },
  };
  const d = await policy.check({ name: "terminal" }, command, ctx);
  if (!d.allowed && d.reason.startsWith("blocked:")) return "block";
  if (asked.length > 0) return "ask";
  return d.allowed ? "run" : "block";
}

describe("approval classes of the outside trial", () => {
  it("has several spellings per class and at least as many look-alikes as dangerous commands", () => {
    const dangerous = CLASSES.filter((c) => c.expect !== "run");
    const harmless = CLASSES.filter((c) => c.expect === "run");
    for (const c of CLASSES) {
      expect(c.reason.length, c.class).toBeGreaterThan(10);
      expect(c.commands.length, c.class).toBeGreaterThanOrEqual(2);
    }
    const count = (cs: typeof CLASSES) => cs.reduce((n, c) => n + c.commands.length, 0);
    expect(count(harmless) + EVERYDAY.length).toBeGreaterThanOrEqual(count(dangerous));
  });

  for (const group of CLASSES) {
    it(`${group.expect}: ${group.class}`, async () => {
      const wrong: string[] = [];
      for (const command of group.commands) {
        const got = await outcome(command, "manual");
        if (got !== group.expect) wrong.push(`${command} → ${got}`);
        if (group.everyMode && (await outcome(command, "off")) !== "ask")
          wrong.push(`${command} → not asked in mode off`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it("runs every everyday command of a coding session unasked", async () => {
    const asked: string[] = [];
    for (const command of EVERYDAY) if ((await outcome(command, "manual")) !== "run") asked.push(command);
    expect(asked).toEqual([]);
  });
});
