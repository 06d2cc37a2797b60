// Random compositions of dangerous cores with obfuscations, wrappers and shell structure: each
// one is blocked or asked about, never allowed. Seeded, so a failure names a reproducible case.
import { describe, expect, it } from "vitest";
import { detectCommand } from "./detect.js";

/** `${IFS}` spelled so the linter does not take it for a forgotten template. */
const IFS = "$" + "{IFS}";

const CORES = [
  "rm -rf ~/x",
  "git push --force origin main",
  "shred -u ~/x/a",
  "chmod -R 777 ~/x",
  "find ~/x -delete",
  "kill -9 -1",
  "dd if=/dev/zero of=/dev/sda",
  "psql -c 'DROP TABLE t'",
  "docker system prune -af",
  "crontab -r",
];

/** Ways to hide a core; each takes the core and returns the new text. */
const OBFUSCATE: ((core: string) => string)[] = [
  (c) => c,
  (c) => c.replace(/^(\S+)/, "$$(echo $1)"),
  (c) => c.replace(/^(\S+)/, "`echo $1`"),
  (c) => `x=${c.split(" ")[0]}; $x ${c.split(" ").slice(1).join(" ")}`,
  (c) => c.replace(/^(\S)(\S*)/, '$1""$2'),
  (c) => c.replace(/^(\S)(\S*)/, "$1\\$2"),
  (c) => c.replace(/^(\S+)/, "$$'$1'"),
  (c) => c.split(" ").join(IFS),
  (c) => `{${c.split(" ").join(",")}}`,
  (c) => `eval '${c.replace(/'/g, "'\\''")}'`,
  (c) => `sh -c '${c.replace(/'/g, "'\\''")}'`,
  (c) => `bash <<< '${c.replace(/'/g, "'\\''")}'`,
  (c) => `bash <<EOF\n${c}\nEOF`,
  (c) => `echo '${c.replace(/'/g, "'\\''")}' | bash`,
  (c) => `python3 -c 'import os; os.system("${c.replace(/'/g, "")}")'`,
  (c) => `perl -e 'system("${c.replace(/'/g, "")}")'`,
];

const WRAP: ((text: string) => string)[] = [
  (t) => t,
  (t) => `sudo ${t}`,
  (t) => `env X=1 ${t}`,
  (t) => `timeout 5 ${t}`,
  (t) => `nice -n 5 ${t}`,
  (t) => `busybox ${t}`,
  (t) => `command ${t}`,
  (t) => `nohup ${t}`,
];

const COMPOSE: ((text: string) => string)[] = [
  (t) => t,
  (t) => `ls && ${t}`,
  (t) => `true; ${t}`,
  (t) => `false || ${t}`,
  (t) => `cat f | ${t}`,
  (t) => `( ${t} )`,
  (t) => `{ ${t}; }`,
  (t) => `echo "$(${t})"`,
  (t) => `f() { ${t}; }; f`,
  (t) => `if true; then ${t}; fi`,
  (t) => `for i in 1; do ${t}; done`,
  (t) => `${t} &`,
];

/** mulberry32: small, seeded, reproducible. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;

describe("approval fuzz", () => {
  it("never allows a random composition of a dangerous core", async () => {
    const r = rng(13);
    const allowed: string[] = [];
    for (let i = 0; i < 600; i++) {
      let text = pick(r, OBFUSCATE)(pick(r, CORES));
      text = pick(r, WRAP)(text);
      text = pick(r, COMPOSE)(text);
      if (r() < 0.3) text = pick(r, COMPOSE)(text);
      const d = await detectCommand(text, { home: "/home/alice", cwd: "/home/alice/proj" });
      if (!d.blocked && d.matches.length === 0) allowed.push(text);
    }
    expect(allowed).toEqual([]);
  });
});
