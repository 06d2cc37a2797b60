// Images and a text-only model (SPEC H4): with vision.model set, an image sent to a model marked
// text-only (model.vision: false) is described by the vision model first, and the main model gets
// the description instead of a silent drop; vision_analyze lets the model ask about an image file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, solidPng, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IrisProcess } from "../src/app/process.js";
import { loadProfile } from "../src/config/index.js";
import { storeOf } from "../src/testing.js";
import { textOf } from "./process.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-vision-e2e");
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model:\n  provider: local\n  name: text-model\n  vision: false\nproviders:\n  local:\n    base_url: ${fake.baseUrl}\n    api_mode: chat_completions\n    api_key: local-key-0123456789\nvision:\n  model: local/vision-model\n`,
  );
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  iris = await IrisProcess.open({ profile, platform: "cli", env: {} });
});
afterEach(async () => {
  await iris.close();
  await fake.close();
  dir.cleanup();
});

type Body = {
  model: string;
  messages: { role: string; content?: unknown }[];
  tools?: { function: { name: string } }[];
};
const png = solidPng(8, 8).toString("base64");

describe("a text-only model and images", () => {
  it("gets the vision model's description of an image the user sent", async () => {
    fake.enqueue(
      { text: "A small red square.", usage: { input: 700, output: 30 } },
      { text: "It is red.", usage: { input: 120, output: 5 } },
    );
    const session = iris.openSession({ source: "test", cwd: dir.path });
    await session.startSession();
    await session.send({
      role: "user",
      content: [
        { type: "text", text: "What colour is this?" },
        { type: "image", mediaType: "image/png", data: png },
      ],
    });
    const [vision, main] = fake.requests.map((r) => r.body as Body);
    expect(vision?.model).toBe("vision-model");
    expect(JSON.stringify(vision?.messages)).toContain(`data:image/png;base64,${png}`);
    expect(main?.model).toBe("text-model");
    const user = JSON.stringify(main?.messages.at(-1));
    expect(user).toContain("[image 1, described by the vision model: A small red square.]");
    expect(user).not.toContain("base64");
    // The vision call is billed in the session like the main one (SPEC F3).
    const usage = (await session.usage()).map((u) => [u.model, u.inputTokens, u.outputTokens]);
    expect(usage).toEqual([
      ["vision-model", 700, 30],
      ["text-model", 120, 5],
    ]);
    expect((await storeOf(iris).getSession(session.id)).inputTokens).toBe(820);
  });

  it("vision_analyze asks the vision model about an image file", async () => {
    writeFileSync(join(dir.path, "chart.png"), solidPng(16, 16, [0, 200, 0]));
    fake.enqueue(
      {
        toolCalls: [{ name: "vision_analyze", arguments: { image: "chart.png", question: "What colour?" } }],
      },
      { text: "Green.", usage: { input: 900, output: 2 } },
      { text: "The chart is green." },
    );
    const session = iris.openSession({ source: "test", cwd: dir.path });
    await session.startSession();
    await session.send("Look at chart.png");
    const bodies = fake.requests.map((r) => r.body as Body);
    expect(bodies[0]?.tools?.map((t) => t.function.name)).toContain("vision_analyze");
    expect(bodies[1]?.model).toBe("vision-model");
    expect(JSON.stringify(bodies[1]?.messages)).toContain("What colour?");
    expect(textOf(bodies[2]?.messages.at(-1))).toContain(
      "Vision model (local/vision-model) on chart.png:\nGreen.",
    );
    // Recorded in the turn that made the tool call, between the main model's two calls (F3).
    const rows = await session.usage();
    expect(rows.map((u) => u.model)).toEqual(["text-model", "vision-model", "text-model"]);
    expect(rows[1]?.inputTokens).toBe(900);
    expect(new Set(rows.map((u) => u.taskId)).size).toBe(1);
  });
});
