import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@iris/testkit";
import type { Menu, SkillLibrary } from "@iris/tools";
import { afterEach, describe, expect, it } from "vitest";
import { ENTRY_FRESH_MS, type SharedPrompt, SharedPrompts } from "./shared-prompts.js";

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function setUp() {
  const dir = tempDir("iris-shared-prompts");
  dirs.push(dir);
  let now = Date.UTC(2026, 0, 5, 12);
  let builds = 0;
  const shared = new SharedPrompts(() => now);
  const memory = join(dir.path, "MEMORY.md");
  const build = (): SharedPrompt => {
    builds++;
    return { prompt: `prompt ${builds}`, skills: {} as SkillLibrary, menu: {} as Menu };
  };
  return {
    memory,
    get: (key = "cwd-a") => shared.get(key, [memory], build).prompt,
    builds: () => builds,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("SharedPrompts", () => {
  it("builds a prompt once per key and hands the same one out while nothing changed", () => {
    const t = setUp();
    expect(t.get()).toBe("prompt 1");
    expect(t.get()).toBe("prompt 1");
    expect(t.get("cwd-b")).toBe("prompt 2");
    expect(t.builds()).toBe(2);
  });

  it("rebuilds when a file the prompt quotes appears or changes", () => {
    const t = setUp();
    t.get();
    writeFileSync(t.memory, "the user likes tea");
    expect(t.get()).toBe("prompt 2");
    writeFileSync(t.memory, "the user likes coffee now");
    expect(t.get()).toBe("prompt 3");
    expect(t.get()).toBe("prompt 3");
  });

  it("rebuilds after ENTRY_FRESH_MS and on a new day", () => {
    const t = setUp();
    t.get();
    t.advance(ENTRY_FRESH_MS - 1);
    expect(t.get()).toBe("prompt 1");
    t.advance(1);
    expect(t.get()).toBe("prompt 2");
    t.advance(24 * 3600_000);
    expect(t.get()).toBe("prompt 3");
  });
});
