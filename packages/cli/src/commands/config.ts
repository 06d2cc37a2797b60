// `iris config get|set|unset KEY [VALUE]` and `iris config path`: config.yaml edited in place
// (comments and layout kept, set-value.ts), every change validated against the schema first so
// a typo never lands in the file. VALUE is read as YAML: `true`, `0.7`, `[file, terminal]`.
import {
  type ConfigEditResult,
  configSchema,
  formatConfigErrors,
  resolveHome,
  setConfigValue,
  unsetConfigValue,
  yaml,
} from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { withProfile } from "./with-records.js";

function configPath(flags: GlobalFlags): string {
  return resolveHome({ env: process.env, ...(flags.profile ? { profile: flags.profile } : {}) }).paths.config;
}

function valueAt(obj: unknown, keys: string[]): { found: boolean; value?: unknown } {
  let cur: unknown = obj;
  for (const k of keys) {
    if (cur === null || typeof cur !== "object" || !(k in cur)) return { found: false };
    cur = (cur as Record<string, unknown>)[k];
  }
  return { found: true, value: cur };
}

/** Whether the schema knows `keys` (records such as providers.ID accept any name). */
function knownKey(keys: string[]): boolean {
  return valueAt(configSchema.parse({}), keys.slice(0, 1)).found;
}

function show(value: unknown): string {
  if (value === null || typeof value !== "object") return `${String(value)}\n`;
  return yaml().stringify(value);
}

export function configGet(flags: GlobalFlags, key: string): number {
  return withProfile(
    flags,
    (profile) => {
      const keys = key.split(".").filter(Boolean);
      const at = valueAt(profile.config, keys);
      if (!at.found) {
        const known = knownKey(keys);
        process.stderr.write(
          known
            ? `iris: ${key} is not set\n`
            : `iris: unknown config key '${key}' (see config.schema.json)\n`,
        );
        return known ? 1 : 2;
      }
      process.stdout.write(show(at.value));
      return 0;
    },
    { readOnly: true },
  );
}

function report(result: ConfigEditResult, done: string): number {
  if (!result.ok) {
    process.stderr.write(`${formatConfigErrors(result.errors)}\n`);
    return 2;
  }
  process.stdout.write(`${result.changed ? done : "unchanged"}\n`);
  // The file had problems before this edit; they are still there (the edit did not touch them).
  if (result.remaining?.length)
    process.stderr.write(`iris: config.yaml still has problems:\n${formatConfigErrors(result.remaining)}\n`);
  return 0;
}

export function configSet(flags: GlobalFlags, key: string, raw: string): number {
  // An unknown key is refused by the schema check, with its line and the nearest known key.
  const keys = key.split(".").filter(Boolean);
  if (!keys.length) {
    process.stderr.write("iris: config set needs a key such as compression.threshold\n");
    return 2;
  }
  let value: unknown;
  try {
    value = yaml().parse(raw);
  } catch {
    value = raw;
  }
  const path = configPath(flags);
  return report(setConfigValue(path, keys, value ?? raw), `${key} = ${JSON.stringify(value)} (${path})`);
}

export function configUnset(flags: GlobalFlags, key: string): number {
  const keys = key.split(".").filter(Boolean);
  const path = configPath(flags);
  return report(unsetConfigValue(path, keys), `${key} removed; its default applies (${path})`);
}

export function configPathCommand(flags: GlobalFlags): number {
  process.stdout.write(`${configPath(flags)}\n`);
  return 0;
}
