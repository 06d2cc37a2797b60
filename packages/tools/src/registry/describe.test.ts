import { describe, expect, it } from "vitest";
import { rewriteDescription } from "./describe.js";

describe("rewriteDescription", () => {
  it("returns the description untouched when nothing removed is mentioned", () => {
    const text = "Reads a file. Use offset and limit, e.g. for logs.";
    expect(rewriteDescription(text, "read_file", ["patch", "search_files"])).toBe(text);
  });

  it("drops each sentence that names a removed tool, in backticks, with an underscore, or as 'X tool'", () => {
    const text =
      "Run a command. Check background jobs with `process`. Prefer search_files to grep. The browser tool can render pages. Keep output short!";
    expect(rewriteDescription(text, "terminal", ["process", "search_files", "browser"])).toBe(
      "Run a command. Keep output short!",
    );
  });

  it("does not count ordinary words that happen to be tool names, nor the tool's own name", () => {
    const text = "Start a background process and write to its memory. Use `terminal` again later.";
    expect(rewriteDescription(text, "terminal", ["process", "memory", "terminal"])).toBe(text);
  });

  it("keeps line structure when a line goes", () => {
    const text = "Edits files.\nUse `patch` for small edits.\n\n- Paths are relative to the project.";
    expect(rewriteDescription(text, "write_file", ["patch"])).toBe(
      "Edits files.\n\n- Paths are relative to the project.",
    );
  });
});
