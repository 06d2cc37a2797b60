// The approval corpus (issue 13), read by the table, sandbox and fuzz tests and by bench/.
// dangerous.json: commands that must be blocked or asked about; lookalikes.json: commands that
// must not be. Both are plain JSON arrays so they are easy to extend.
import { readFileSync } from "node:fs";

const load = (name: string): string[] =>
  JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url), "utf8")) as string[];

export const DANGEROUS: readonly string[] = load("dangerous.json");
export const LOOKALIKES: readonly string[] = load("lookalikes.json");
