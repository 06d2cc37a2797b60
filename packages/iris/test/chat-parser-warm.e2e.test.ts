// The approval check's bash parser (mvdan-sh, compiled through node:vm with a code cache) loads in
// the background once the chat is up, so the first `terminal` call does not wait for it; a chat
// without the terminal tool never loads it. A preload records every compile of mvdan-sh as it
// happens (a plain require of it too), so this is seen before any message is sent.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, type TempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";

const PRELOAD = (log: string) => `
const vm = require("node:vm");
const { appendFileSync } = require("node:fs");
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, opts) {
    super(code, opts);
    const file = typeof opts === "string" ? opts : opts && opts.filename;
    if (/mvdan-sh/.test(String(file))) appendFileSync(${JSON.stringify(log)}, "compiled " + file + "\\n");
  }
};
const Module = require("node:module");
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === "mvdan-sh") appendFileSync(${JSON.stringify(log)}, "required mvdan-sh\\n");
  return load.call(this, request, ...rest);
};
`;

let home: TempHome;
let work: string;
let baseUrl: string;
let close: () => Promise<void>;
const ptys = trackedPtys();
beforeEach(async () => {
  let fake: { baseUrl: string };
  ({ fake, home, work, close } = await fakeHome(true));
  baseUrl = fake.baseUrl;
});
afterEach(async () => {
  ptys.killOpen();
  await close();
});

function chatWithPreload(extra: string[] = []) {
  const log = join(home.home, "loads.log");
  const preload = join(home.home, "preload.cjs");
  writeFileSync(preload, PRELOAD(log));
  const t = ptys.start(
    [...routeArgs(baseUrl, "chat_completions"), ...extra],
    { IRIS_HOME: home.home, NODE_OPTIONS: `--require ${preload}` },
    work,
  );
  const parserLoaded = () => existsSync(log) && /mvdan-sh/.test(readFileSync(log, "utf8"));
  return { t, parserLoaded };
}

describe("the bash parser of the approval check", () => {
  it("is loaded in the background once the chat is up, before any terminal call", async () => {
    const { t, parserLoaded } = chatWithPreload();
    await t.waitFor("› ");
    await t.waitFor(parserLoaded);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("is not loaded by a chat without the terminal tool", async () => {
    writeFileSync(join(home.home, "config.yaml"), "toolsets:\n  cli: [file]\n");
    const { t, parserLoaded } = chatWithPreload();
    await t.waitFor("› ");
    t.type("/tools\r");
    await t.waitFor("read_file");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
    expect(t.screen()).not.toMatch(/^terminal$/m);
    expect(parserLoaded()).toBe(false);
  }, 60_000);
});
