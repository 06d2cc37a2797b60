// The dispatcher, the approval policy and the real terminal tool from the generated index.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../approval/policy.js";
import type { FileBefore, ToolContext } from "../define.js";
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

describe("dispatch with the built-in file writers: the files before the write go to the receipt gate", () => {
  it("hands write_file and patch's files as they were (bytes, or null when new) to beforeExecute, reads nothing for a read", async () => {
    const registry = new ToolRegistry({ logger: { warn: () => {} } });
    await loadBuiltinTools(registry, { only: ["write_file", "patch", "read_file"] });
    writeFileSync(join(work, "app.txt"), "version 1\n");
    symlinkSync(join(work, "app.txt"), join(work, "link.txt"));
    const seen: (FileBefore[] | undefined)[] = [];
    const ctx: ToolContext = {
      signal: new AbortController().signal,
      taskId: "dispatch-files",
      workspace: localWorkspace(),
      cwd: work,
      progress: () => {},
      approve: async () => "once",
      beforeExecute: async (files) => {
        // What the gate sees is the file before the tool touched it.
        seen.push(files.map((f) => ({ ...f })));
        return { run: true };
      },
    };
    const policy = createApprovalPolicy({ mode: "off" });
    const call = (name: string, args: object) =>
      dispatchToolCall(registry, { name, argumentsJson: JSON.stringify(args) }, ctx, policy);
    expect((await call("write_file", { path: "link.txt", content: "version 2\n" })).isError).toBe(false);
    expect((await call("patch", { path: "app.txt", old_string: "2", new_string: "3" })).isError).toBe(false);
    expect((await call("write_file", { path: "sub/new.txt", content: "made\n" })).isError).toBe(false);
    expect((await call("read_file", { path: "app.txt" })).isError).toBe(false);
    expect(seen.map((files) => files?.map((f) => [f.path, f.content?.toString() ?? null]))).toEqual([
      [[join(work, "app.txt"), "version 1\n"]], // the link's target: where the write lands
      [[join(work, "app.txt"), "version 2\n"]],
      [[join(work, "sub", "new.txt"), null]],
      [], // a read is gated too, with no files
    ]);
    expect(readFileSync(join(work, "app.txt"), "utf8")).toBe("version 3\n");
  });
});
