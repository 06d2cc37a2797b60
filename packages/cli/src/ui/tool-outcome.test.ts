import { describe, expect, it } from "vitest";
import { toolOutcome } from "./tool-outcome.js";

describe("toolOutcome", () => {
  it("marks a killed, interrupted or timed-out command failed, and notes a non-zero exit", () => {
    expect(toolOutcome("terminal", false, undefined, "(no output)\n[killed by SIGKILL]")).toEqual({
      failed: true,
      note: "killed by SIGKILL",
    });
    expect(
      toolOutcome(
        "terminal",
        false,
        undefined,
        "x\n[interrupted; the command and its child processes were killed]",
      ),
    ).toEqual({ failed: true, note: "interrupted" });
    expect(toolOutcome("terminal", false, undefined, "x\n[timed out after 5 s; killed]")).toMatchObject({
      failed: true,
    });
    expect(toolOutcome("terminal", false, undefined, "x\n[exit code: 2]")).toEqual({
      failed: false,
      note: "exit code 2",
    });
    expect(
      toolOutcome("terminal", false, undefined, "x\n[exit code: 0]\n[working directory is now /w]"),
    ).toEqual({
      failed: false,
    });
    expect(toolOutcome("read_file", false, undefined, "[killed by SIGKILL]")).toEqual({ failed: false });
    expect(toolOutcome("patch", true, "no match")).toEqual({ failed: true, note: "no match" });
  });
});
