#!/usr/bin/env node
// Builds packages/llm/src/catalogue/models.generated.ts, the bundled offline model table
// (SPEC M1), from two checked-in inputs:
//   packages/llm/catalogue-data/snapshot.json     facts per (provider, model) from a catalogue
//   packages/llm/catalogue-data/corrections.json  per-route overrides (e.g. the 272K coding route)
// Nothing is fetched, ever: not here, not during build or tests.
//
//   node scripts/gen-catalogue.mjs            write the generated file
//   node scripts/gen-catalogue.mjs --check    fail (exit 1) if the generated file drifted
//   node scripts/gen-catalogue.mjs --import-pi-ai PATH/TO/pi-ai/dist/models.generated.js
//        (developer step) rewrite snapshot.json from an installed @mariozechner/pi-ai
// Options for tests: --data DIR (inputs), --out FILE (generated file).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const dataDir = resolve(opt("--data") ?? resolve(root, "packages/llm/catalogue-data"));
const outFile = resolve(opt("--out") ?? resolve(root, "packages/llm/src/catalogue/models.generated.ts"));

/** pi-ai provider id → ours. Providers we do not bundle are left out. */
const PI_PROVIDERS = {
  openrouter: "openrouter",
  anthropic: "anthropic",
  openai: "openai",
  "openai-codex": "openai-codex",
  google: "gemini",
  deepseek: "deepseek",
  moonshotai: "moonshot",
  zai: "zai",
  minimax: "minimax",
  xai: "xai",
  groq: "groq",
  mistral: "mistral",
  "amazon-bedrock": "bedrock",
  "azure-openai-responses": "azure-foundry",
};

function fail(msg) {
  console.error(`gen-catalogue: ${msg}`);
  process.exit(1);
}

/**
 * Prices come with float noise (0.5700000000000001): keep 6 significant digits. A negative price
 * marks a router with variable pricing (openrouter/auto): recorded as 0, i.e. not estimated.
 */
const price = (n) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? Number(n.toPrecision(6)) : 0);

async function importPiAi(file) {
  const mod = await import(pathToFileURL(resolve(file)).href);
  const pkg = JSON.parse(readFileSync(resolve(dirname(file), "../package.json"), "utf8"));
  const providers = {};
  for (const [piId, ourId] of Object.entries(PI_PROVIDERS)) {
    const models = mod.MODELS[piId];
    if (!models) fail(`pi-ai has no provider '${piId}'`);
    const out = {};
    for (const id of Object.keys(models).sort()) {
      const m = models[id];
      out[id] = {
        name: m.name,
        contextWindow: m.contextWindow,
        maxOutput: m.maxTokens,
        price: {
          input: price(m.cost?.input),
          output: price(m.cost?.output),
          cacheRead: price(m.cost?.cacheRead),
          cacheWrite: price(m.cost?.cacheWrite),
        },
        reasoning: !!m.reasoning,
        vision: Array.isArray(m.input) && m.input.includes("image"),
      };
    }
    providers[ourId] = out;
  }
  const snapshot = {
    source: `${pkg.name}@${pkg.version} dist/models.generated.js (MIT), converted by scripts/gen-catalogue.mjs --import-pi-ai`,
    units: "contextWindow = max input tokens; maxOutput = max output tokens; price = USD per million tokens",
    providers,
  };
  writeFileSync(resolve(dataDir, "snapshot.json"), `${JSON.stringify(snapshot, null, 2)}\n`);
  const n = Object.values(providers).reduce((a, p) => a + Object.keys(p).length, 0);
  console.error(
    `gen-catalogue: wrote snapshot.json (${n} models, ${Object.keys(providers).length} providers)`,
  );
}

function checkEntry(where, e) {
  const num = (v, k) => {
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) fail(`${where}: ${k} must be a number >= 0`);
  };
  num(e.contextWindow, "contextWindow");
  num(e.maxOutput, "maxOutput");
  if (e.contextWindow < 1) fail(`${where}: contextWindow must be positive`);
  for (const k of ["input", "output", "cacheRead", "cacheWrite"]) num(e.price?.[k], `price.${k}`);
  if (typeof e.reasoning !== "boolean" || typeof e.vision !== "boolean")
    fail(`${where}: reasoning and vision must be booleans`);
}

const row = (e) =>
  `[${e.contextWindow}, ${e.maxOutput}, ${e.price.input}, ${e.price.output}, ${e.price.cacheRead}, ${e.price.cacheWrite}, ${(e.reasoning ? 1 : 0) | (e.vision ? 2 : 0)}]`;

function generate() {
  const snapshot = JSON.parse(readFileSync(resolve(dataDir, "snapshot.json"), "utf8"));
  const corrections = JSON.parse(readFileSync(resolve(dataDir, "corrections.json"), "utf8"));
  const bundled = snapshot.providers ?? fail("snapshot.json has no 'providers'");
  for (const [p, models] of Object.entries(bundled))
    for (const [m, e] of Object.entries(models)) checkEntry(`snapshot ${p}/${m}`, e);

  const corrected = {};
  for (const c of corrections.corrections ?? fail("corrections.json has no 'corrections' list")) {
    const where = `correction ${c.provider}/${c.model}`;
    if (!c.provider || !c.model || !c.why) fail(`${where}: provider, model and why are required`);
    let base = bundled[c.provider]?.[c.model];
    if (c.basedOn) {
      const [bp, ...rest] = c.basedOn.split("/");
      base = bundled[bp]?.[rest.join("/")];
      if (!base) fail(`${where}: basedOn '${c.basedOn}' is not in snapshot.json`);
    }
    if (!base && !c.set?.price) fail(`${where}: not in snapshot.json; give basedOn or every field in 'set'`);
    const e = {
      ...base,
      ...c.set,
      price: { ...(base?.price ?? {}), ...(c.set?.price ?? {}) },
    };
    checkEntry(where, e);
    corrected[c.provider] ??= {};
    if (corrected[c.provider][c.model]) fail(`${where}: listed twice`);
    corrected[c.provider][c.model] = { e, why: c.why };
  }

  const lines = [
    "// GENERATED by scripts/gen-catalogue.mjs from packages/llm/catalogue-data/{snapshot,corrections}.json.",
    "// Do not edit: change the inputs and run `node scripts/gen-catalogue.mjs` (CI runs --check).",
    "// Row: [contextWindow (max input tokens), maxOutput, USD per million: input, output, cacheRead,",
    "//       cacheWrite, flags (1 = reasoning, 2 = vision)].",
    'import type { ModelRow } from "./types.js";',
    "",
    `export const SNAPSHOT_SOURCE = ${JSON.stringify(snapshot.source ?? "unknown")};`,
    "",
    "export const BUNDLED_MODELS: Readonly<Record<string, Readonly<Record<string, ModelRow>>>> = {",
  ];
  for (const p of Object.keys(bundled).sort()) {
    lines.push(`  ${JSON.stringify(p)}: {`);
    for (const m of Object.keys(bundled[p]).sort())
      lines.push(`    ${JSON.stringify(m)}: ${row(bundled[p][m])},`);
    lines.push("  },");
  }
  lines.push("};", "");
  lines.push(
    "/** Per-route overrides: [row, why]. They win over the snapshot and over a refreshed cache. */",
    "export const MODEL_CORRECTIONS: Readonly<Record<string, Readonly<Record<string, readonly [ModelRow, string]>>>> = {",
  );
  for (const p of Object.keys(corrected).sort()) {
    lines.push(`  ${JSON.stringify(p)}: {`);
    for (const m of Object.keys(corrected[p]).sort()) {
      const { e, why } = corrected[p][m];
      lines.push(`    ${JSON.stringify(m)}: [${row(e)}, ${JSON.stringify(why)}],`);
    }
    lines.push("  },");
  }
  lines.push("};", "");
  return lines.join("\n");
}

const piAi = opt("--import-pi-ai");
if (piAi) {
  await importPiAi(piAi);
} else {
  const text = generate();
  if (args.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(outFile, "utf8");
    } catch {}
    if (current !== text) {
      fail(
        `${outFile} is out of date with catalogue-data/: run \`node scripts/gen-catalogue.mjs\` and commit it`,
      );
    }
    console.error("gen-catalogue: generated catalogue is up to date");
  } else {
    writeFileSync(outFile, text);
    console.error(`gen-catalogue: wrote ${outFile}`);
  }
}
