import { AgentEvents } from "@iris/host";
import { describe, expect, it } from "vitest";
import { attachProgress } from "./progress.js";

describe("waiting for the model", () => {
  it("a silent call shows 'waiting for the model (N s)' (at 5, 15, 30 s off a terminal), never mid-stream", () => {
    const events = new AgentEvents();
    let written = "";
    attachProgress(events, { write: (s: string) => (written += s) });
    events.emit("thinking", { active: true });
    for (const seconds of [3, 4, 5, 6, 15, 16, 30])
      events.emit("waiting", { seconds, provider: "openai", model: "gpt-x" });
    expect(written.split("\n").filter(Boolean)).toEqual([
      "… waiting for the model openai/gpt-x (5 s)",
      "… waiting for the model openai/gpt-x (15 s)",
      "… waiting for the model openai/gpt-x (30 s)",
    ]);
    written = "";
    events.emit("thinking", { active: false });
    events.emit("waiting", { seconds: 60, provider: "openai", model: "gpt-x" });
    expect(written).toBe("");
  });
});
