// Writes one variable into the profile's .env, keeping every other line, with mode 600 (the file
// holds keys: only its owner may read it).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export function setEnvVar(path: string, name: string, value: string): void {
  const lines = existsSync(path) ? readFileSync(path, "utf8").split("\n") : [];
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const quoted = /^[\w./:@+-]*$/.test(value) ? value : JSON.stringify(value);
  const entry = `${name}=${quoted}`;
  const at = lines.findIndex((l) => new RegExp(`^\\s*(export\\s+)?${name}\\s*=`).test(l));
  if (at >= 0) lines[at] = entry;
  else lines.push(entry);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${lines.join("\n")}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
