// The approval corpus, read by the table, sandbox and fuzz tests and by bench/.
// dangerous.json: commands that must be blocked or asked about; lookalikes.json: commands that
// must not be (both plain JSON arrays, from the first corpus). classes.json: the classes of the
// outside trial, each with several spellings, the outcome expected (block, ask or run) and why;
// `everyMode` groups are asked about even in approval mode off. everyday.json: a coding
// session's everyday commands, whose share run unasked bench/approval.ts prints.
import { readFileSync } from "node:fs";

const load = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url), "utf8")) as T;

export interface CorpusClass {
  class: string;
  expect: "block" | "ask" | "run";
  reason: string;
  everyMode?: boolean;
  commands: string[];
}

export const DANGEROUS: readonly string[] = load<string[]>("dangerous.json");
export const LOOKALIKES: readonly string[] = load<string[]>("lookalikes.json");
export const CLASSES: readonly CorpusClass[] = load<CorpusClass[]>("classes.json");
export const EVERYDAY: readonly string[] = load<string[]>("everyday.json");
