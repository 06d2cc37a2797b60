// Images through `iris serve` (SPEC E3, H4): a Chat Completions image_url part and a Responses
// input_image from the official SDK reach the upstream model as images, in the route's shape.
import { solidPng } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./helpers.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const png = solidPng(5, 5).toString("base64");
const url = `data:image/png;base64,${png}`;

describe("images through iris serve", () => {
  it("chat completions: the image_url part is passed through", async () => {
    h.fake.enqueue({ text: "red" });
    const res = await h.client().chat.completions.create({
      model: "iris",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "colour?" },
            { type: "image_url", image_url: { url } },
          ],
        },
      ],
    });
    expect(res.choices[0]?.message.content).toBe("red");
    const sent = h.fake.requests.at(-1);
    expect(sent?.rejected).toBeUndefined();
    expect(JSON.stringify(sent?.body)).toContain(`{"type":"image_url","image_url":{"url":"${url}"}}`);
  });

  it("responses: the input_image is passed through", async () => {
    h.fake.enqueue({ text: "red" });
    const res = await h.client().responses.create({
      model: "iris",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "colour?" },
            { type: "input_image", image_url: url, detail: "auto" },
          ],
        },
      ],
    });
    expect(res.output_text).toBe("red");
    expect(JSON.stringify(h.fake.requests.at(-1)?.body)).toContain(`"url":"${url}"`);
  });
});
