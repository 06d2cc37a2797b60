// For tests and bench: where the real MCP servers installed as dev dependencies keep their bins,
// run with this Node (no shell, no PATH lookup).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function packageDir(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error(`${name} is not installed (npm ci installs it as a dev dependency)`);
    dir = up;
  }
}

/** The script of a package's (first) bin. */
export function binScript(name: string): string {
  const dir = packageDir(name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  if (!bin) throw new Error(`${name} has no bin`);
  return join(dir, bin);
}

/** `{command, args}` that start server-everything over stdio. */
export function everythingStdio(): { command: string; args: string[] } {
  return { command: process.execPath, args: [binScript("@modelcontextprotocol/server-everything"), "stdio"] };
}

/** `{command, args}` that start server-filesystem over stdio, allowed into `dir`. */
export function filesystemStdio(dir: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [binScript("@modelcontextprotocol/server-filesystem"), dir] };
}
