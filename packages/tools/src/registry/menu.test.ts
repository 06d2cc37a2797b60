import { describe, expect, it } from "vitest";
import { z } from "zod";
import { selectMenu } from "./menu.js";
import { ToolRegistry } from "./registry.js";
import { fakeTool, memoryLogger } from "./test-tools.js";
import { expandToolsets } from "./toolsets.js";

function registryWith(now?: () => number, ttlMs?: number) {
  const logger = memoryLogger();
  const registry = new ToolRegistry({ logger, now, ttlMs });
  for (const [name, set] of [
    ["terminal", "terminal"],
    ["process", "terminal"],
    ["read_file", "file"],
    ["write_file", "file"],
    ["web_search", "web"],
    ["web_extract", "web"],
    ["send_message", "messaging"],
  ] as const) {
    registry.register(fakeTool(name, set));
  }
  return { registry, logger };
}

const names = (menu: { tools: { name: string }[] }) => menu.tools.map((t) => t.name);

describe("toolset selection", () => {
  it("expands composites, including nested ones, and survives cycles", () => {
    const composites = { a: ["b", "file"], b: ["a", "c"], c: ["web", "c"] };
    const out = expandToolsets(["a"], composites, new Set(["file", "web"]));
    expect([...out.basic].sort()).toEqual(["file", "web"]);
    expect(out.unknown).toEqual([]);
  });

  it("uses the platform's configured toolsets", async () => {
    const { registry } = registryWith();
    const config = { toolsets: { cli: ["debugging"], gateway: ["file", "messaging"] } };
    expect(names(await selectMenu(registry, { platform: "cli", config }))).toEqual([
      "process",
      "read_file",
      "terminal",
      "web_extract",
      "web_search",
      "write_file",
    ]);
    expect(names(await selectMenu(registry, { platform: "gateway", config }))).toEqual([
      "read_file",
      "send_message",
      "write_file",
    ]);
  });

  it("falls back to the platform default, honours disabled toolsets and tools, warns on unknown names", async () => {
    const { registry, logger } = registryWith();
    const all = await selectMenu(registry, { platform: "cli" });
    expect(names(all)).toHaveLength(7);
    const config = {
      toolsets: { cli: ["core", "nonsense"] },
      disabledToolsets: ["web"],
      disabledTools: ["process"],
      compositeToolsets: { mine: ["file"] },
    };
    expect(names(await selectMenu(registry, { platform: "cli", config }))).toEqual([
      "read_file",
      "send_message",
      "terminal",
      "write_file",
    ]);
    expect(logger.messages.join("\n")).toContain("'nonsense'");
    const mine = await selectMenu(registry, {
      platform: "x",
      config: { toolsets: { x: ["mine"] }, compositeToolsets: { mine: ["file"] } },
    });
    expect(names(mine)).toEqual(["read_file", "write_file"]);
  });
});

describe("availability", () => {
  it("fails safe: a throw, a rejection, or a non-true answer means unavailable", async () => {
    const registry = new ToolRegistry({ logger: memoryLogger() });
    registry.register(fakeTool("ok", "t", { available: () => true }));
    registry.register(
      fakeTool("throws", "t", {
        available: () => {
          throw new Error("no key");
        },
      }),
    );
    registry.register(fakeTool("rejects", "t", { available: async () => Promise.reject(new Error("x")) }));
    registry.register(fakeTool("falsy", "t", { available: () => false }));
    const menu = await selectMenu(registry, { platform: "p", config: { toolsets: { p: ["t"] } } });
    expect(names(menu)).toEqual(["ok"]);
    expect(menu.unavailable.sort()).toEqual(["falsy", "rejects", "throws"]);
  });

  it("runs a shared check once per selection, caches it for the TTL and re-runs it after", async () => {
    let clock = 1_000;
    let runs = 0;
    let answer = true;
    const shared = () => {
      runs++;
      return answer;
    };
    const registry = new ToolRegistry({ logger: memoryLogger(), now: () => clock, ttlMs: 10_000 });
    for (const n of ["a", "b", "c"]) registry.register(fakeTool(n, "t", { available: shared }));
    const select = () => selectMenu(registry, { platform: "p", config: { toolsets: { p: ["t"] } } });

    expect(names(await select())).toEqual(["a", "b", "c"]);
    expect(runs).toBe(1);
    answer = false;
    clock += 5_000;
    expect(names(await select())).toEqual(["a", "b", "c"]);
    expect(runs).toBe(1);
    clock += 5_000;
    expect(names(await select())).toEqual([]);
    expect(runs).toBe(2);
  });

  it("with TTL 0 still runs a shared check once per selection", async () => {
    let runs = 0;
    const shared = () => ++runs > 0;
    const registry = new ToolRegistry({ logger: memoryLogger(), ttlMs: 0 });
    for (const n of ["a", "b"]) registry.register(fakeTool(n, "t", { available: shared }));
    const select = () => selectMenu(registry, { platform: "p", config: { toolsets: { p: ["t"] } } });
    await select();
    await select();
    expect(runs).toBe(2);
  });
});

describe("what the model sees", () => {
  it("leaves out, with a warning, a tool whose parameters are not an object schema", async () => {
    const logger = memoryLogger();
    const registry = new ToolRegistry({ logger });
    registry.register(fakeTool("fine", "t"));
    registry.register(fakeTool("stringy", "t", { parameters: z.string() }));
    registry.register(fakeTool("dated", "t", { parameters: z.object({ when: z.date() }) }));
    const menu = await selectMenu(registry, { platform: "p", config: { toolsets: { p: ["t"] } } });
    expect(names(menu)).toEqual(["fine"]);
    expect(logger.messages.filter((m) => m.includes("left out"))).toHaveLength(2);
  });

  it("never names a filtered-out tool in a remaining description", async () => {
    const registry = new ToolRegistry({ logger: memoryLogger() });
    registry.register(
      fakeTool("terminal", "terminal", {
        description:
          "Run a shell command. For long jobs use background=true and check on them with `process`. Prefer read_file over cat. Start a background process if needed.",
      }),
    );
    registry.register(fakeTool("process", "terminal"));
    registry.register(fakeTool("read_file", "file"));
    const menu = await selectMenu(registry, {
      platform: "p",
      config: { toolsets: { p: ["terminal"] }, disabledTools: ["process"] },
    });
    const description = menu.specs[0]?.description ?? "";
    expect(description).toBe("Run a shell command. Start a background process if needed.");
    expect(description).not.toMatch(/read_file|`process`/);
  });

  it("gives draft-7 input schemas without $schema, in stable order and bytes", async () => {
    const { registry } = registryWith();
    const a = await selectMenu(registry, { platform: "cli" });
    const b = await selectMenu(registry, { platform: "cli" });
    expect(JSON.stringify(a.specs)).toBe(JSON.stringify(b.specs));
    const spec = a.specs.find((s) => s.name === "read_file");
    expect(spec?.parameters).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "what to echo" } },
      required: ["text"],
    });
    expect(a.specs.map((s) => s.name)).toEqual([...a.specs.map((s) => s.name)].sort());
  });
});
