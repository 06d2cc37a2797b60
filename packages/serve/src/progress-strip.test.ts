import { describe, expect, it } from "vitest";
import { progressText } from "./progress.js";
import { withoutProgressBlocks } from "./progress-strip.js";

const before = progressText({ phase: "before", name: "terminal", callId: "c1", preview: "ls -la" });
const after = progressText({ phase: "after", name: "terminal", callId: "c1", isError: false });
const failed = progressText({ phase: "after", name: "read_file", callId: "c2", isError: true });

describe("withoutProgressBlocks", () => {
  it("cuts the blocks Iris streamed, closed or cut off, and keeps the model's text", () => {
    const streamed = `Let me look.${before}${after}Found 3 files.${progressText({ phase: "before", name: "read_file", callId: "c2" })}${failed}Done.`;
    expect(withoutProgressBlocks(streamed)).toBe("Let me look.\nFound 3 files.\nDone.");
    expect(withoutProgressBlocks(`Working${before}`)).toBe("Working");
    expect(withoutProgressBlocks(`${before}${after}Answer`)).toBe("Answer");
  });

  it("leaves a model's own <details> and text without blocks untouched", () => {
    const own = "<details>\n<summary>Proof</summary>\n\nstep 1\n</details>";
    expect(withoutProgressBlocks(own)).toBe(own);
    expect(withoutProgressBlocks("plain")).toBe("plain");
  });
});
