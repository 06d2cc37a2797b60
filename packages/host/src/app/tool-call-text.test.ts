import { describe, expect, it } from "vitest";
import { toolCallText } from "./tool-call-text.js";

describe("toolCallText", () => {
  it("shows the main argument, not the JSON, and no absolute path of the server", () => {
    expect(toolCallText("read_file", '{"path":"/home/srv/.iris/serve/requests/r1/notes.txt"}')).toBe(
      "read_file: …/notes.txt",
    );
    expect(toolCallText("terminal", '{"command":"npm test","timeout":30}')).toBe("terminal: npm test");
    expect(toolCallText("terminal", '{"command":"cat /etc/passwd | head"}')).toBe(
      "terminal: cat …/passwd | head",
    );
  });
  it("reads a preview cut short, and falls back to the tool name", () => {
    expect(toolCallText("search_files", '{"pattern":"TODO","path":"src","limit":5, "other":"aaaaaaaa…')).toBe(
      "search_files: TODO",
    );
    expect(toolCallText("todo", '{"todos":[]}')).toBe('todo: {"todos":[]}');
    expect(toolCallText("skills_list", undefined)).toBe("skills_list");
  });
});
