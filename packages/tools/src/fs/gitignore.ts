// .gitignore rules for the file walk (issue 13): the usual subset of git's rules — comments,
// `!` negation, a trailing `/` for folders only, a `/` inside a pattern anchoring it to the
// .gitignore's folder, `*`, `?`, `[…]` and `**`. The last matching rule wins, as in git.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { globToRegExp } from "./glob.js";

interface Rule {
  /** Folder of the .gitignore, relative to the walk's root ("" for the root). */
  base: string;
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
  anchored: boolean;
}

export type IgnoreRules = readonly Rule[];

/** The rules of `dir/.gitignore` added to the inherited ones (unchanged when there is none). */
export async function withGitignore(
  inherited: IgnoreRules,
  dir: string,
  base: string,
  readText: (file: string) => Promise<string | undefined> = (f) => readFile(f, "utf8").catch(() => undefined),
): Promise<IgnoreRules> {
  const text = await readText(path.posix.join(dir, ".gitignore"));
  if (text === undefined) return inherited;
  const rules = [...inherited];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    line = line.replace(/^\\([#!])/, "$1");
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "") continue;
    try {
      rules.push({ base, re: globToRegExp(line), negate, dirOnly, anchored });
    } catch {
      // A pattern we cannot read is skipped, as git skips what it cannot parse.
    }
  }
  return rules;
}

/** Whether `rel` (relative to the walk's root, `/`-separated) is ignored. */
export function isIgnored(rules: IgnoreRules, rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    if (r.base !== "" && !rel.startsWith(`${r.base}/`)) continue;
    const local = r.base === "" ? rel : rel.slice(r.base.length + 1);
    const subject = r.anchored ? local : local.slice(local.lastIndexOf("/") + 1);
    if (r.re.test(subject)) ignored = !r.negate;
  }
  return ignored;
}
