import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@iris/testkit";
import type { Menu, SkillLibrary } from "@iris/tools";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WatchFolder } from "./file-changes.js";
import { ENTRY_FRESH_MS, type SharedPrompt, SharedPrompts } from "./shared-prompts.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setUp(watchFolder?: WatchFolder) {
  const dir = tempDir("iris-shared-prompts");
  cleanups.push(() => dir.cleanup());
  let now = Date.UTC(2026, 0, 5, 12);
  let builds = 0;
  const shared = new SharedPrompts(() => now, watchFolder);
  cleanups.push(() => shared.close());
  const memory = join(dir.path, "MEMORY.md");
  const build = (): SharedPrompt => {
    builds++;
    return { prompt: `prompt ${builds}`, skills: {} as SkillLibrary, menu: {} as Menu };
  };
  return {
    dir: dir.path,
    memory,
    get: (key = "cwd-a") => shared.get(key, [memory], build).prompt,
    builds: () => builds,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const cannotWatch: WatchFolder = () => {
  throw new Error("ENOSPC: no inotify watches left");
};

describe("SharedPrompts", () => {
  it("builds a prompt once per key and hands the same one out while nothing changed", () => {
    const t = setUp();
    expect(t.get()).toBe("prompt 1");
    expect(t.get()).toBe("prompt 1");
    expect(t.get("cwd-b")).toBe("prompt 2");
    expect(t.builds()).toBe(2);
  });

  it("rebuilds when a file the prompt quotes appears or changes (told by its folder's watch)", async () => {
    const t = setUp();
    t.get();
    writeFileSync(t.memory, "the user likes tea");
    await vi.waitFor(() => expect(t.get()).toBe("prompt 2"));
    writeFileSync(t.memory, "the user likes coffee now");
    await vi.waitFor(() => expect(t.get()).toBe("prompt 3"));
    expect(t.get()).toBe("prompt 3");
  });

  it("is not rebuilt by changes to the folder's other files (state.db beside SOUL.md)", () => {
    let change: ((name: string | null) => void) | undefined;
    const t = setUp((_dir, onChange) => {
      change = onChange;
      return { close: () => {} };
    });
    t.get();
    change?.("state.db-wal");
    expect(t.get()).toBe("prompt 1");
    change?.("MEMORY.md");
    expect(t.get()).toBe("prompt 2");
    change?.(null); // the platform did not say which file
    expect(t.get()).toBe("prompt 3");
  });

  it("reads the files' times for every request where their folder cannot be watched", () => {
    const t = setUp(cannotWatch);
    t.get();
    writeFileSync(t.memory, "the user likes tea");
    expect(t.get()).toBe("prompt 2");
    writeFileSync(t.memory, "the user likes coffee now");
    expect(t.get()).toBe("prompt 3");
    expect(t.get()).toBe("prompt 3");
  });

  it("rebuilds when a watch stops (its folder removed): the files are read from then on", () => {
    let stop: (() => void) | undefined;
    const t = setUp((_dir, _onChange, onError) => {
      stop = onError;
      return { close: () => {} };
    });
    t.get();
    expect(t.get()).toBe("prompt 1");
    stop?.();
    expect(t.get()).toBe("prompt 2");
    writeFileSync(t.memory, "the user likes tea");
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
