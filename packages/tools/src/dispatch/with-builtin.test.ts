// The dispatcher, the approval policy and the real terminal tool from the generated index.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../approval/policy.js";
import type { ToolContext } from "../define.js";
import { loadBuiltinTools } from "../registry/load-builtin.js";
import { ToolRegistry } from "../registry/registry.js";
import { localWorkspace } from "../workspace/local.js";
import { dispatchToolCall } from "./dispatch.js";

const work = mkdtempSync(join(tmpdir(), "iris-dispatch-real-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("dispatch with the built-in terminal", () => {
  // The blocked command is hard-blocked by name but harmless if it ever ran (mkfs --version), so a
  // broken policy makes this test fail, never the machine.
  it("runs a harmless command and refuses a hard-blocked one without running it", async () => {
    const registry = new ToolRegistry({ logger: { warn: () => {} } });
    const report = await loadBuiltinTools(registry, { only: ["terminal"] });
    expect(report.loaded).toEqual(["terminal"]);
    let asked = 0;
    const ctx: ToolContext = {
      signal: new AbortController().signal,
      taskId: "dispatch-real",
      workspace: localWorkspace(),
      cwd: work,
      progress: () => {},
      approve: async () => {
        asked++;
        return "once";
      },
    };
    const policy = createApprovalPolicy({ mode: "off" });
    const ok = await dispatchToolCall(
      registry,
      { name: "terminal", argumentsJson: '{"command":"echo hello"}' },
      ctx,
      policy,
    );
    expect(ok.isError).toBe(false);
    expect(ok.content).toContain("hello");
    const blocked = await dispatchToolCall(
      registry,
      { name: "terminal", argumentsJson: JSON.stringify({ command: "touch marker && mkfs --version" }) },
      ctx,
      policy,
    );
    expect(blocked.isError).toBe(true);
    expect(blocked.content).toContain("blocked");
    expect(existsSync(join(work, "marker"))).toBe(false);
    expect(asked).toBe(0);
  });
});
