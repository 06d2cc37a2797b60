// Stateless conversations share their frozen prompt per working directory (SPEC S2, E3): built
// once, handed to the next in-memory session, rebuilt when MEMORY.md changes; a stored session
// still builds its own.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type OpenedProcess, openProcess } from "./process.js";

let opened: OpenedProcess | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

describe("stateless sessions' shared prompt", () => {
  it("is reused by the next in-memory session of the same folder and rebuilt when memory changes", async () => {
    opened = await openProcess("iris-shared-prompt");
    const { iris, fake, dir } = opened;
    const cwd = join(dir.path, "work");
    mkdirSync(cwd, { recursive: true });
    const route = {
      provider: "custom",
      model: "fake-model",
      baseUrl: fake.baseUrl,
      apiMode: "chat_completions" as const,
    };
    const open = () => iris.openSession({ source: "api:test", cwd, route });
    const first = open();
    const a = first.startInMemory([], "be brief").systemPrompt;
    const second = open();
    const b = second.startInMemory([], "be brief").systemPrompt;
    expect(b).toBe(a);
    // The second session took the first one's skills over instead of reading them again.
    expect(second.skills).toBe(first.skills);
    writeFileSync(join(dir.path, "MEMORY.md"), "The user's cat is called Miso.");
    // The change is learnt from a watch of the profile folder, whose event comes a moment later:
    // the next sessions are opened until one has it (the test's timeout bounds the wait).
    let third = open();
    while (!third.startInMemory([]).systemPrompt?.includes("Miso")) {
      await third.close();
      await new Promise((r) => setTimeout(r, 20));
      third = open();
    }
    expect(third.skills).not.toBe(first.skills);
    // A client's instructions follow the shared prompt, each session its own.
    const fourth = open();
    expect(fourth.startInMemory([], "answer in French").systemPrompt).toContain("answer in French");
    await Promise.all([first, second, third, fourth].map((s) => s.close()));
  });
});
