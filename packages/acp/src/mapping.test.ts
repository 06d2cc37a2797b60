import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TerminationReason } from "@iris/host";
import { describe, expect, it } from "vitest";
import { LINKED_FILE_CAP_BYTES, promptToMessage } from "./prompt-content.js";
import { type StopReason, stopReasonOf } from "./stop-reason.js";
import { describeToolCall, toolKindOf } from "./tool-calls.js";

describe("tool calls as the editor sees them", () => {
  it("maps tools to ACP kinds", () => {
    expect(
      ["read_file", "write_file", "patch", "search_files", "terminal", "todo", "web_fetch", "mystery"].map(
        toolKindOf,
      ),
    ).toEqual(["read", "edit", "edit", "search", "execute", "think", "fetch", "other"]);
  });

  it("gives patch a diff and a location, and survives bad arguments", () => {
    const v = describeToolCall(
      "patch",
      JSON.stringify({ path: "src/a.ts", old_string: "x", new_string: "y" }),
      "/w",
    );
    expect(v).toMatchObject({ title: "Edit src/a.ts", locations: [{ path: "/w/src/a.ts" }] });
    expect(v.diffs).toEqual([{ path: "/w/src/a.ts", oldText: "x", newText: "y" }]);
    expect(describeToolCall("terminal", "{not json", "/w")).toMatchObject({
      kind: "execute",
      title: "terminal",
    });
  });
});

describe("stop reasons", () => {
  it("maps every termination reason to the stop reason ACP defines for it", () => {
    const cases: [TerminationReason, StopReason][] = [
      ["natural", "end_turn"],
      ["max_rounds", "max_turn_requests"],
      ["time_budget_expired", "max_turn_requests"],
      ["cost_budget_exceeded", "max_turn_requests"],
      ["convergence_detected", "max_turn_requests"],
      ["context_exhausted", "max_tokens"],
      ["model_refusal", "refusal"],
      ["input_blocked", "refusal"],
      ["user_cancelled", "cancelled"],
      ["llm_error", "end_turn"],
      ["billing_error", "end_turn"],
      ["store_error", "end_turn"],
      ["client_tool_calls", "end_turn"],
    ];
    for (const [reason, stop] of cases) expect([reason, stopReasonOf({ reason })]).toEqual([reason, stop]);
  });

  it("reports every reply cut at the output token limit as max_tokens", () => {
    const cut = { role: "assistant", parts: [], stopReason: "max_tokens" } as never;
    expect(stopReasonOf({ reason: "natural", message: cut })).toBe("max_tokens");
    const empty = {
      kind: "invalid_response",
      message: "empty reply",
      retryable: true,
      code: "max_tokens",
    } as const;
    expect(stopReasonOf({ reason: "llm_error", error: empty })).toBe("max_tokens");
    expect(stopReasonOf({ reason: "llm_error", error: { ...empty, code: "other" } })).toBe("end_turn");
  });
});

describe("prompt content", () => {
  it("reads file:// links with a cap, keeps embedded text and gates images on vision", async () => {
    const dir = mkdtempSync(join(tmpdir(), "iris-acp-prompt-"));
    try {
      const small = join(dir, "small.txt");
      const big = join(dir, "big.txt");
      writeFileSync(small, "hello file");
      writeFileSync(big, "x".repeat(LINKED_FILE_CAP_BYTES + 10));
      const blocks = [
        { type: "text" as const, text: "look" },
        { type: "resource_link" as const, uri: pathToFileURL(small).href, name: "small.txt" },
        { type: "resource_link" as const, uri: pathToFileURL(big).href, name: "big.txt" },
        { type: "resource" as const, resource: { uri: "file:///x.ts", text: "unsaved" } },
        { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" },
      ];
      const blind = await promptToMessage(blocks, { vision: false });
      expect(typeof blind.content).toBe("string");
      expect(blind.content).toContain("hello file");
      expect(blind.content).toContain("unsaved");
      expect(blind.content).toContain("cut at 512 KiB");
      expect(blind.content).toContain("this model cannot see images");
      const seeing = await promptToMessage(blocks, { vision: true });
      expect(Array.isArray(seeing.content) && seeing.content.some((p) => p.type === "image")).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
