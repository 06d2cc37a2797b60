import { describe, expect, it } from "vitest";
import { ToolRegistry } from "./registry.js";
import { fakeTool, memoryLogger } from "./test-tools.js";

describe("ToolRegistry", () => {
  it("registers, gets by exact name and lists sorted by name", () => {
    const registry = new ToolRegistry({ logger: memoryLogger() });
    registry.register(fakeTool("write_file", "file"));
    registry.register(fakeTool("Terminal", "terminal"));
    registry.register(fakeTool("read_file", "file"));
    expect(registry.list().map((t) => t.name)).toEqual(["Terminal", "read_file", "write_file"]);
    expect(registry.get("read_file")?.toolset).toBe("file");
    expect(registry.get("read-file")).toBeUndefined();
    expect(registry.get("terminal")).toBeUndefined();
  });

  it("warns on a name collision and keeps the later registration", () => {
    const logger = memoryLogger();
    const registry = new ToolRegistry({ logger });
    registry.register(fakeTool("search", "web"));
    const later = fakeTool("search", "plugin");
    registry.register(later);
    expect(registry.get("search")).toBe(later);
    expect(registry.list()).toHaveLength(1);
    expect(logger.messages).toHaveLength(1);
    expect(logger.messages[0]).toContain("'search'");
    expect(logger.messages[0]).toContain("plugin");
  });

  it("unregisters", () => {
    const registry = new ToolRegistry({ logger: memoryLogger() });
    registry.register(fakeTool("a", "x"));
    expect(registry.unregister("a")).toBe(true);
    expect(registry.has("a")).toBe(false);
  });
});
