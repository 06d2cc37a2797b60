// The approval corpus (issue 13): every dangerous command is blocked or asked about, and no
// look-alike is. The false-positive rate over the look-alikes is printed and must stay 0.
import { describe, expect, it } from "vitest";
import { DANGEROUS, LOOKALIKES } from "./corpus/corpus.js";
import { detectCommand } from "./detect.js";

const opts = { home: "/home/alice", cwd: "/home/alice/proj" };

describe("approval corpus", () => {
  it("is big enough and has no duplicates", () => {
    expect(DANGEROUS.length).toBeGreaterThanOrEqual(250);
    expect(LOOKALIKES.length).toBeGreaterThanOrEqual(120);
    expect(new Set(DANGEROUS).size).toBe(DANGEROUS.length);
    expect(new Set(LOOKALIKES).size).toBe(LOOKALIKES.length);
  });

  it("blocks or asks about every dangerous command", async () => {
    const allowed: string[] = [];
    for (const command of DANGEROUS) {
      const d = await detectCommand(command, opts);
      if (!d.blocked && d.matches.length === 0) allowed.push(command);
    }
    expect(allowed).toEqual([]);
  });

  it("leaves every look-alike alone (false-positive rate 0)", async () => {
    const flagged: string[] = [];
    for (const command of LOOKALIKES) {
      const d = await detectCommand(command, opts);
      if (d.blocked || d.matches.length)
        flagged.push(`${command} → ${d.matches.map((m) => m.key).join(",")}`);
    }
    process.stderr.write(
      `approval corpus: ${flagged.length}/${LOOKALIKES.length} look-alikes flagged (false-positive rate ${((100 * flagged.length) / LOOKALIKES.length).toFixed(1)} %)\n`,
    );
    expect(flagged).toEqual([]);
  });

  it("names the issue's forms as the reason it asks", async () => {
    const keys = async (c: string) => (await detectCommand(c, opts)).matches.map((m) => m.key);
    expect(await keys("$(echo rm) -rf ~/x")).toContain("dynamic_command");
    expect(await keys("x=rm; $x -rf ~/x")).toContain("dynamic_command");
    expect(await keys("bash <<< 'rm -rf ~/x'")).toEqual(
      expect.arrayContaining(["shell_code", "recursive_delete"]),
    );
    expect(await keys("$'\\x72m' -rf /")).toContain("dynamic_command");
    expect(await keys("{rm,-rf,/}")).toContain("dynamic_command");
    expect(await keys("busybox rm -rf /")).toContain("wrapper");
    expect((await detectCommand("busybox rm -rf /", opts)).blocked?.key).toBe("delete_system_root");
    expect(await keys("perl -e 'unlink glob \"*\"'")).toContain("interpreter_code");
    expect(await keys("echo 'unterminated")).toContain("parse_error");
  });
});
