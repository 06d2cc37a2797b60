// `iris sessions export ID --format openai`: one OpenAI chat fine-tuning line (messages with
// tool_calls, the called tools' schemas alongside), as spawned processes against a temp home.
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

it("exports a stored session as a fine-tuning line with tool_calls and tools", async () => {
  fake.enqueue(
    { reasoning: "check first", toolCalls: [{ name: "terminal", arguments: { command: "echo hi" } }] },
    { text: "it said hi" },
  );
  const env = { IRIS_HOME: home.home };
  const ran = await runIris(["-p", "say hi", "--yolo", ...routeArgs(fake.baseUrl, "chat_completions")], {
    env,
    cwd: home.home,
  });
  expect(ran.code, ran.stderr).toBe(0);
  const id = (await runIris(["sessions", "list"], { env, cwd: home.home })).stdout.split(/\s+/)[0] ?? "";
  const out = await runIris(["sessions", "export", id, "--format", "openai"], { env, cwd: home.home });
  expect(out.code, out.stderr).toBe(0);
  const lines = out.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  const line = JSON.parse(lines[0] ?? "");
  expect(line.messages.map((m: { role: string }) => m.role)).toEqual([
    "system",
    "user",
    "assistant",
    "tool",
    "assistant",
  ]);
  const call = line.messages[2].tool_calls[0];
  expect(call).toMatchObject({
    type: "function",
    function: { name: "terminal", arguments: '{"command":"echo hi"}' },
  });
  expect(line.messages[3].tool_call_id).toBe(call.id);
  expect(line.messages[4]).toEqual({ role: "assistant", content: "it said hi" });
  expect(line.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["terminal"]);
  expect(line.tools[0].function.parameters).toMatchObject({
    type: "object",
    properties: { command: expect.any(Object) },
  });
  expect(line.reasoning).toEqual([{ message: 2, text: "check first" }]);
});
