/** Reads and checks a CLI script: a JSON array of Steps. */
import { readFileSync } from "node:fs";
import type { Step } from "./types.js";

const FAULTS = new Set(["status", "stall", "drop", "malformed", "raw"]);
const REPLY_KEYS = new Set([
  "text",
  "reasoning",
  "toolCalls",
  "stopReason",
  "refusal",
  "usage",
  "chunkSize",
  "id",
]);

function checkStep(step: unknown, where: string): Step {
  if (typeof step !== "object" || step === null || Array.isArray(step)) {
    throw new Error(`${where}: a step must be an object`);
  }
  const s = step as Record<string, unknown>;
  if ("fault" in s) {
    if (typeof s.fault !== "string" || !FAULTS.has(s.fault)) {
      throw new Error(`${where}.fault: must be one of ${[...FAULTS].join(", ")}`);
    }
    if (s.fault === "status" && typeof s.status !== "number")
      throw new Error(`${where}.status: must be a number`);
    if (s.fault === "raw" && typeof s.body !== "string") throw new Error(`${where}.body: must be a string`);
    if (s.fault === "drop") {
      if (typeof s.afterEvents !== "number") throw new Error(`${where}.afterEvents: must be a number`);
      checkStep(s.reply, `${where}.reply`);
    }
    return step as Step;
  }
  for (const key of Object.keys(s)) {
    if (!REPLY_KEYS.has(key)) throw new Error(`${where}.${key}: unknown field of a scripted reply`);
  }
  for (const key of ["text", "reasoning", "refusal", "id"] as const) {
    if (key in s && typeof s[key] !== "string") throw new Error(`${where}.${key}: must be a string`);
  }
  if ("toolCalls" in s) {
    if (!Array.isArray(s.toolCalls)) throw new Error(`${where}.toolCalls: must be an array`);
    s.toolCalls.forEach((c: unknown, i) => {
      if (typeof c !== "object" || c === null || typeof (c as { name?: unknown }).name !== "string") {
        throw new Error(`${where}.toolCalls[${i}].name: must be a string`);
      }
    });
  }
  return step as Step;
}

export function loadScript(file: string): Step[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`--script ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`--script ${file}: must be a JSON array of steps`);
  return parsed.map((s, i) => checkStep(s, `--script ${file}: [${i}]`));
}
