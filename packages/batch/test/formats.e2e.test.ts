// Trajectories a trainer accepts (SPEC E4): `--format openai` rows are OpenAI chat fine-tuning
// lines — checked against a schema of that format written here from its documentation, not the
// one the code uses — with `tools` alongside; both layouts carry the tool schemas the model was
// offered, the item's own system text, and the reasoning the route returned.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  type RecordedRequest,
  type Step,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { trajectoryRowSchema } from "../src/trajectory.js";
import { batch, messagesOf, promptOf, readRows, writeInput } from "./helpers.js";

// OpenAI's chat fine-tuning line: {messages, tools?, parallel_tool_calls?}; message keys as documented.
const functionCall = z.strictObject({
  id: z.string().min(1),
  type: z.literal("function"),
  function: z.strictObject({ name: z.string().min(1), arguments: z.string() }),
});
const fineTuneMessage = z.union([
  z.strictObject({ role: z.literal("system"), content: z.string(), name: z.string().optional() }),
  z.strictObject({ role: z.literal("user"), content: z.string(), name: z.string().optional() }),
  z
    .strictObject({
      role: z.literal("assistant"),
      content: z.string().nullable().optional(),
      tool_calls: z.array(functionCall).optional(),
      weight: z.union([z.literal(0), z.literal(1)]).optional(),
    })
    .refine((m) => (m.content ?? "") !== "" || (m.tool_calls?.length ?? 0) > 0, "an empty assistant message"),
  z.strictObject({ role: z.literal("tool"), tool_call_id: z.string().min(1), content: z.string() }),
]);
const fineTuneLine = z.looseObject({
  messages: z.array(fineTuneMessage).min(2),
  tools: z
    .array(
      z.strictObject({
        type: z.literal("function"),
        function: z.strictObject({
          name: z.string().min(1),
          description: z.string().optional(),
          parameters: z.looseObject({ type: z.literal("object") }),
        }),
      }),
    )
    .optional(),
  parallel_tool_calls: z.boolean().optional(),
});

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler((req: RecordedRequest): Step => {
    const last = messagesOf(req).at(-1);
    if (last?.role === "tool") return { text: "the folder is listed", reasoning: "read the tool output" };
    return {
      reasoning: "I should look first",
      toolCalls: [{ name: "terminal", arguments: { command: "pwd" } }],
    };
  });
  dir = tempDir("iris-batch-formats-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const toolNamesOf = (req: RecordedRequest) =>
  ((req.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name).sort();

describe("iris batch --format", () => {
  it("openai: fine-tuning messages with tool_calls, the offered tools alongside, system text and reasoning", async () => {
    const input = writeInput(dir.path, [
      { id: "a", prompt: "where am I?", system: "ITEM-SYSTEM answer tersely" },
    ]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out, format: "openai" });
    expect(r.code, r.stderr).toBe(0);
    const [row] = readRows(out);
    expect(trajectoryRowSchema.parse(row)).toEqual(row);
    const line = fineTuneLine.parse(JSON.parse(readFileSync(out, "utf8").split("\n")[0] ?? ""));
    expect(line.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    const call = line.messages[2];
    expect(call?.role === "assistant" && call.tool_calls?.[0]?.function).toEqual({
      name: "terminal",
      arguments: JSON.stringify({ command: "pwd" }),
    });
    const result = line.messages[3];
    expect(result?.role === "tool" && result.tool_call_id).toBe(
      call?.role === "assistant" && call.tool_calls?.[0]?.id,
    );
    // The tools are exactly the ones the model was offered, schemas included.
    const first = fake.requests[0] as RecordedRequest;
    expect(line.tools?.map((t) => t.function.name).sort()).toEqual(toolNamesOf(first));
    expect(line.tools?.find((t) => t.function.name === "terminal")?.function.parameters).toEqual(
      (first.body as { tools: { function: { name: string; parameters: unknown } }[] }).tools.find(
        (t) => t.function.name === "terminal",
      )?.function.parameters,
    );
    // The item's system text is written, and the system message is the prompt as it was sent.
    expect(row?.system).toBe("ITEM-SYSTEM answer tersely");
    const sentSystem = messagesOf(first)[0];
    expect(line.messages[0]).toEqual({ role: "system", content: sentSystem?.content });
    expect(row?.reasoning).toEqual([
      { message: 2, text: "I should look first" },
      { message: 4, text: "read the tool output" },
    ]);
    expect(row?.conversations).toBeUndefined();
  });

  it("sharegpt (the default): rows carry the tools offered, the item's system text and <think> reasoning", async () => {
    const input = writeInput(dir.path, [{ prompt: "where am I?", system: "ITEM-SYSTEM be brief" }]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out });
    expect(r.code, r.stderr).toBe(0);
    const [row] = readRows(out);
    expect(row?.messages).toBeUndefined();
    expect(row?.tools?.map((t) => t.function.name).sort()).toEqual(
      toolNamesOf(fake.requests[0] as RecordedRequest),
    );
    expect(row?.system).toBe("ITEM-SYSTEM be brief");
    expect(row?.conversations?.[0]?.value).toContain("ITEM-SYSTEM be brief");
    expect(row?.conversations?.[2]?.value).toMatch(/^<think>\nI should look first\n<\/think>\n<tool_call>/);
    expect(promptOf(fake.requests[0] as RecordedRequest)).toBe("where am I?");
  });

  it("refuses to resume an output written in the other layout", async () => {
    const input = writeInput(dir.path, [{ prompt: "one" }, { prompt: "two" }]);
    const out = join(dir.path, "out.jsonl");
    expect((await batch(dir.path, fake, { input, out, maxItems: 1 })).code).toBe(0);
    const r = await batch(dir.path, fake, { input, out, resume: true, format: "openai" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("holds --format sharegpt rows: resume it with --format sharegpt");
  });
});
