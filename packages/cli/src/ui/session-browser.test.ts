// The session browser takes the keys at once, even while its rows are still coming from the
// store: a filter typed straight after `/resume` lands in the filter, not in the chat's line.
import { EventEmitter } from "node:events";
import type { SessionRow } from "@iris/host";
import { describe, expect, it } from "vitest";
import { browseSessions, type KeyInput } from "./session-browser.js";

const row = (id: string, title: string, cwd = "/w"): SessionRow => ({
  id,
  title,
  source: "cli",
  cwd,
  parentSessionId: null,
  systemPrompt: null,
  model: null,
  provider: null,
  startedAt: 0,
  endedAt: null,
  endReason: null,
  activeLeafId: `${id}-leaf`,
  apiCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  costUsd: 0,
});

function typer(keys: EventEmitter) {
  return (s: string) => {
    for (const ch of s)
      keys.emit("keypress", ch, ch === "\r" ? { name: "return" } : { name: ch, sequence: ch });
  };
}

describe("browseSessions", () => {
  it("keeps the keys typed while the rows load, and applies them once they are there", async () => {
    const keys = new EventEmitter();
    let give!: (rows: SessionRow[]) => void;
    const rows = new Promise<SessionRow[]>((resolve) => {
      give = resolve;
    });
    let shown = "";
    const picked = browseSessions(rows, "/w", keys as unknown as KeyInput, { write: (s) => (shown += s) });
    typer(keys)("gam\r");
    expect(shown).toBe("");
    give([row("aaaaaaaa1", "alpha"), row("bbbbbbbb2", "gamma"), row("cccccccc3", "beta")]);
    expect((await picked)?.id).toBe("bbbbbbbb2");
    expect(keys.listenerCount("keypress")).toBe(0);
  });

  it("draws as soon as the rows are there, and Esc cancels", async () => {
    const keys = new EventEmitter();
    let shown = "";
    const picked = browseSessions(
      Promise.resolve([row("aaaaaaaa1", "alpha")]),
      "/w",
      keys as unknown as KeyInput,
      {
        write: (s) => (shown += s),
      },
    );
    await new Promise((r) => setImmediate(r));
    expect(shown).toContain("alpha");
    keys.emit("keypress", undefined, { name: "escape" });
    expect(await picked).toBeUndefined();
  });
});
