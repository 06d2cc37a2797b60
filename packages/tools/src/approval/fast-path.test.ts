// The fast path reads exactly what the full parser reads: every corpus command it accepts gets
// the same detection both ways, and it accepts most of a coding session's everyday commands.
import { describe, expect, it } from "vitest";
import { CLASSES, DANGEROUS, EVERYDAY, LOOKALIKES } from "./corpus/corpus.js";
import { detectCommand } from "./detect.js";
import { fastAnalyse } from "./fast-path.js";

const home = "/home/alice";
const cwd = "/home/alice/proj";
const corpus = [...DANGEROUS, ...LOOKALIKES, ...CLASSES.flatMap((c) => c.commands), ...EVERYDAY];

describe("the fast path", () => {
  it("judges every command it accepts exactly as the full parser does", async () => {
    const differ: string[] = [];
    let accepted = 0;
    for (const command of corpus) {
      if (!fastAnalyse(command, home, cwd)) continue;
      accepted++;
      const fast = await detectCommand(command, { home, cwd });
      const full = await detectCommand(command, { home, cwd, fullParse: true });
      if (JSON.stringify(fast) !== JSON.stringify(full))
        differ.push(`${command}\n  fast ${JSON.stringify(fast)}\n  full ${JSON.stringify(full)}`);
    }
    expect(differ).toEqual([]);
    expect(accepted).toBeGreaterThan(200);
  });

  it("accepts most everyday commands and refuses what needs the parser", () => {
    const share = EVERYDAY.filter((c) => fastAnalyse(c, home, cwd)).length / EVERYDAY.length;
    expect(share).toBeGreaterThan(0.7);
    for (const c of [
      "echo $HOME",
      "ls `pwd`",
      "(cd x && ls)",
      "sleep 1 &",
      "cat <<EOF\nx\nEOF",
      "sh -c 'ls'",
      "X=1 ls",
      "ls # hi",
      "f() { ls; }",
      "a\\ b",
      "ls |",
      "ls >",
    ])
      expect(fastAnalyse(c, home, cwd), c).toBeUndefined();
  });
});
