import { describe, expect, it } from "vitest";
import { builtinToolModules } from "../builtin-index.generated.js";
import { loadBuiltinTools } from "./load-builtin.js";
import { ToolRegistry } from "./registry.js";
import { fakeTool, memoryLogger } from "./test-tools.js";

describe("loadBuiltinTools", () => {
  it("skips a module that fails to load or is not a tool, logs it, and loads the rest", async () => {
    const logger = memoryLogger();
    const registry = new ToolRegistry({ logger });
    const index = {
      good: async () => ({ default: fakeTool("good", "t") }),
      broken: async () => {
        throw new Error("Cannot find package 'optional-dep'");
      },
      throwsSync: () => {
        throw new Error("boom at import");
      },
      notATool: async () => ({ default: { hello: "world" } }),
    };
    const report = await loadBuiltinTools(registry, { index });
    expect(report.loaded).toEqual(["good"]);
    expect(report.failed.map((f) => f.module).sort()).toEqual(["broken", "notATool", "throwsSync"]);
    expect(registry.list().map((t) => t.name)).toEqual(["good"]);
    expect(logger.messages.some((m) => m.includes("'broken'") && m.includes("optional-dep"))).toBe(true);
    expect(logger.messages).toHaveLength(3);
  });

  it("loads only what is asked, and resolves collisions in index order with a warning", async () => {
    const logger = memoryLogger();
    const registry = new ToolRegistry({ logger });
    const first = fakeTool("same", "a");
    const second = fakeTool("same", "b");
    const index = {
      a_mod: async () => ({ default: first }),
      b_mod: async () => ({ default: second }),
      c_mod: async () => ({ default: fakeTool("other", "c") }),
    };
    await loadBuiltinTools(registry, { index, only: ["a_mod", "b_mod"] });
    expect(registry.get("same")).toBe(second);
    expect(registry.has("other")).toBe(false);
    expect(logger.messages.filter((m) => m.includes("collision"))).toHaveLength(1);
  });

  it("loads the generated index of the real builtin folder without throwing", async () => {
    const registry = new ToolRegistry({ logger: memoryLogger() });
    const report = await loadBuiltinTools(registry);
    expect(report.loaded.length + report.failed.length).toBe(Object.keys(builtinToolModules).length);
  });
});
