import { describe, expect, it } from "vitest";
import { detectCommand } from "./detect.js";
import { fileWriteSubject, shellQuote } from "./subjects.js";

const keys = async (subject: string) =>
  (await detectCommand(subject, { home: "/home/a", cwd: "/home/a/proj" })).matches.map((m) => m.key);

describe("fileWriteSubject", () => {
  it("makes file writes match the same patterns as shell redirects", async () => {
    expect(await keys(fileWriteSubject("/etc/hosts"))).toEqual(["write_system_config"]);
    expect(await keys(fileWriteSubject("/home/a/.ssh/authorized_keys"))).toEqual(["write_credentials"]);
    expect(await keys(fileWriteSubject(".env"))).toEqual(["write_credentials"]);
    expect(await keys(fileWriteSubject("/home/a/.zshrc"))).toEqual(["write_shell_startup"]);
    expect(await keys(fileWriteSubject("src/app.ts"))).toEqual([]);
    expect(await keys(fileWriteSubject("notes with 'quotes' and spaces.md"))).toEqual([]);
  });

  it("quotes what the shell would split", () => {
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("/plain/path.txt")).toBe("/plain/path.txt");
  });
});
