import { describe, expect, it } from "vitest";
import { StreamDraft } from "../src/stream-draft.js";
import { MemoryAdapter } from "./memory-adapter.js";

function streaming(minEditIntervalMs: number) {
  const adapter = new MemoryAdapter();
  const drafts: { at: number; text: string }[] = [];
  let now = 1000;
  Object.assign(adapter.limits, { minEditIntervalMs });
  const a = Object.assign(adapter, {
    draft: (_to: unknown, text: string) => drafts.push({ at: now, text }),
  });
  const draft = new StreamDraft(a, { platform: "mem", chatId: "ann" }, () => now);
  return { draft, drafts, tick: (ms: number) => (now += ms) };
}
const turn = () => new Promise((r) => setTimeout(r, 0));
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 2000 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe("StreamDraft", () => {
  it("shows the text so far at once, then no more often than the edit limit; the newest wins", async () => {
    const { draft, drafts, tick } = streaming(0);
    draft.append("Hel");
    await until(() => drafts.length === 1);
    draft.append("lo");
    draft.append(" world");
    await until(() => drafts.length === 2);
    expect(drafts.map((d) => d.text)).toEqual(["Hel", "Hello world"]);
    tick(10);
    draft.done(true);
    draft.append("!");
    await turn();
    expect(drafts).toHaveLength(2); // nothing after the turn ended
  });

  it("waits out the platform's interval between two drafts", async () => {
    const { draft, drafts } = streaming(60_000);
    draft.append("a");
    await until(() => drafts.length === 1);
    draft.append("b");
    await new Promise((r) => setTimeout(r, 50));
    expect(drafts.map((d) => d.text)).toEqual(["a"]); // the next one is a minute away
    draft.done(false);
    expect(drafts.map((d) => d.text)).toEqual(["a", ""]); // an unanswered turn takes it away
  });

  it("starts over when the step is retried", async () => {
    const { draft, drafts } = streaming(0);
    draft.append("half an ans");
    await until(() => drafts.length === 1);
    draft.reset();
    draft.append("Fresh");
    await until(() => drafts.at(-1)?.text === "Fresh");
    expect(drafts.map((d) => d.text)).not.toContain("half an answer");
  });
});
