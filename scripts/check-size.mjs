#!/usr/bin/env node
// Fails when a source file outside generated data grows past 600 lines (ARCHITECTURE.md style).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(process.argv[2] ?? resolve(dirname(new URL(import.meta.url).pathname), ".."));
const LIMIT = 600;
const over = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (["node_modules", "dist", ".git", "fixtures"].includes(name)) continue;
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(ts|mts|mjs|js)$/.test(name) && !/\.generated\./.test(name) && !p.includes("/generated/")) {
      const lines = readFileSync(p, "utf8").split("\n").length;
      if (lines > LIMIT) over.push(`${relative(root, p)}: ${lines} lines (limit ${LIMIT})`);
    }
  }
}
for (const d of ["packages", "scripts", "bench"]) {
  try {
    walk(join(root, d));
  } catch {}
}
if (over.length) {
  console.error(`check-size: split these files by concern:\n${over.join("\n")}`);
  process.exit(1);
}
console.error("check-size: every file within the limit");
