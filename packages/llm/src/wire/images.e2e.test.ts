// Image parts in every API mode against the fake server, which checks them as the real APIs do:
// the PNG arrives in each mode's own shape (Chat Completions image_url, Anthropic base64 source,
// Responses input_image); a part whose bytes do not match its media type is refused with a 400,
// and so is an image where the API allows none.
import { type FakeLlm, solidPng, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiMode, Message } from "../types.js";
import { collectStream, done, fakeRuntime } from "./test/fake-route.js";

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());

const png = solidPng(4, 4).toString("base64");
const ask = (data: string, mediaType = "image/png"): Message[] => [
  {
    role: "user",
    content: [
      { type: "text", text: "what colour?" },
      { type: "image", mediaType, data },
    ],
  },
];
const runtime = (apiMode: ApiMode) =>
  fakeRuntime(fake.baseUrl, {
    provider: "custom",
    apiMode,
    model: "fake-model",
    apiKey: "k",
    compat: { auth: apiMode === "anthropic_messages" ? "x-api-key" : "bearer" },
  });

const SHAPES: Record<ApiMode, unknown> = {
  chat_completions: { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
  anthropic_messages: { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
  responses: { type: "input_image", image_url: `data:image/png;base64,${png}` },
};

describe.each(["chat_completions", "anthropic_messages", "responses"] as const)("images on %s", (mode) => {
  it("sends the PNG in the mode's shape", async () => {
    fake.enqueue({ text: "red" });
    const message = done(await collectStream(runtime(mode), { model: "fake-model", messages: ask(png) }));
    expect(message.stopReason).toBe("end");
    const body = JSON.stringify(fake.requests.at(-1)?.body);
    expect(body).toContain(JSON.stringify(SHAPES[mode]));
  });

  it("is refused when the bytes are not the declared type", async () => {
    const events = await collectStream(runtime(mode), {
      model: "fake-model",
      messages: ask(png, "image/jpeg"),
    });
    const last = events.at(-1);
    expect(last?.type).toBe("error");
    expect(JSON.stringify(last)).toContain("400");
    expect(fake.requests.at(-1)?.rejected).toContain("image.invalid");
  });

  it("is refused when the data is not base64", async () => {
    const events = await collectStream(runtime(mode), { model: "fake-model", messages: ask("not base64!!") });
    expect(events.at(-1)?.type).toBe("error");
    expect(fake.requests.at(-1)?.rejected).toContain("image.invalid");
  });
});
