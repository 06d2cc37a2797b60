// The approval check's bash reader against bash itself: it accepts exactly what `bash -n` accepts
// (the whole corpus and the tricky forms below), and it finds every command a line can run,
// wherever bash would run it (substitutions in here-documents, expansions, arithmetic, tests,
// case items, functions, backquotes in quotes).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLASSES, DANGEROUS, EVERYDAY, LOOKALIKES } from "../corpus/corpus.js";
import { analyseShell } from "../shell-analyse.js";
import { shellParser } from "../shell-parser.js";
import { parseBash } from "./parse.js";

/** hiddenRm: forms that hide `rm` where bash runs it; tricky: forms a reader could get wrong. */
const FORMS = JSON.parse(readFileSync(new URL("./forms.json", import.meta.url), "utf8")) as {
  hiddenRm: string[];
  tricky: string[];
};
const HIDDEN_RM = FORMS.hiddenRm;
const TRICKY = [...FORMS.hiddenRm, ...FORMS.tricky];

function bashAccepts(text: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-O", "extglob", "-n", "-c", text], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve(code === 0 && !/syntax error|unexpected/.test(err)));
  });
}

describe("the bash reader", () => {
  it("accepts exactly what bash -n accepts, over the corpus and the tricky forms", async () => {
    const texts = [
      ...new Set([
        ...DANGEROUS,
        ...LOOKALIKES,
        ...CLASSES.flatMap((c) => c.commands),
        ...EVERYDAY,
        ...TRICKY,
      ]),
    ];
    const disagree: string[] = [];
    for (let i = 0; i < texts.length; i += 8) {
      const batch = texts.slice(i, i + 8);
      const verdicts = await Promise.all(batch.map(bashAccepts));
      batch.forEach((text, j) => {
        const ours = shellParser().parse(text);
        if (ours.ok !== verdicts[j])
          disagree.push(
            `${JSON.stringify(text)}: bash ${verdicts[j] ? "accepts" : "refuses"}, ours ${ours.ok ? "accepts" : ours.error}`,
          );
      });
    }
    expect(disagree).toEqual([]);
  }, 120_000);

  it("finds the command wherever bash would run it", () => {
    for (const text of HIDDEN_RM) {
      const { parsed, concerns } = analyseShell(shellParser(), text, "/home/alice", "/home/alice/p");
      const found = parsed.commands.some((c) => c.name === "rm") || concerns.length > 0;
      expect(found, text).toBe(true);
      expect(
        parsed.commands.map((c) => c.name),
        text,
      ).toContain("rm");
    }
  });

  it("reads here-documents as bash does: tabs stripped by <<-, quoted bodies left unexpanded", () => {
    const names = (t: string) =>
      analyseShell(shellParser(), t, "/h", "/h/p").parsed.commands.map((c) => [c.name, c.heredocs]);
    expect(names("cat <<-EOF\n\tls\n\tEOF")).toEqual([["cat", ["ls\n"]]]);
    expect(names("cat <<'EOF'\n$(rm -rf x)\nEOF")).toEqual([["cat", ["$(rm -rf x)\n"]]]);
  });

  it("reads `$((` that is not arithmetic once per place: no exponential retries, no depth left over", () => {
    // Each `$((` is first tried as arithmetic, then as a substitution; a failed try is remembered.
    let text = "echo x";
    for (let i = 0; i < 25; i++) text = `$((${text}) )`;
    expect(shellParser().parse(`echo ${text}`).ok).toBe(true);
    const unclosed = shellParser().parse(`echo ${"$(( (".repeat(20)}x`);
    expect(unclosed.ok ? "" : unclosed.error).toMatch(/unclosed/);
    // A failed arithmetic try leaves no here-document owed: the body below belongs to cat.
    const doc = analyseShell(shellParser(), "cat <<E $(( $(cat <<F\nf\nF\n) x' ))\nbody\nE", "/h", "/h/p");
    expect(doc.concerns.map((c) => c.key)).toContain("parse_error");
  });

  it("never throws on mangled text: every input is a tree or a syntax error", () => {
    // Seeded: a failure names a reproducible input.
    let seed = 25;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = [
      "$((",
      "$(",
      "((",
      "(",
      ")",
      "))",
      "`",
      "'",
      '"',
      "<<E\n",
      "\nE\n",
      "${",
      "}",
      "[[",
      "]]",
      ";;",
      "\\",
      "&",
      "|",
      "\n",
      " ",
      "case x in ",
      "esac",
      "{ ",
      "; }",
      "<(",
      "$'",
    ];
    const texts = [...FORMS.tricky, ...EVERYDAY];
    const crashed: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let t = texts[random(texts.length)] as string;
      for (let k = 0; k < 3; k++) {
        const at = random(t.length + 1);
        t = random(2)
          ? t.slice(0, at) + pieces[random(pieces.length)] + t.slice(at)
          : t.slice(0, at) + t.slice(at + 1 + random(4));
      }
      try {
        shellParser().parse(t);
      } catch (e) {
        crashed.push(`${JSON.stringify(t)}: ${(e as Error).message}`);
      }
    }
    expect(crashed).toEqual([]);
  });

  it("refuses nesting beyond its bound with a syntax error, never a stack overflow", () => {
    const deep = `${"$(".repeat(20_000)}ls${")".repeat(20_000)}`;
    expect(() => parseBash(deep)).toThrow(/nested too deeply/);
    expect(shellParser().parse(`${"( ".repeat(5000)}ls${" )".repeat(5000)}`).ok).toBe(false);
    expect(shellParser().parse(`${"{ ".repeat(5000)}ls${"; }".repeat(5000)}`).ok).toBe(false);
  });
});
