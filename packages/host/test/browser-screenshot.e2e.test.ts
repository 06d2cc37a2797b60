// A screenshot reaches the model as an image in each route's own shape (SPEC T, H4): the model
// calls browser_navigate then browser_screenshot on Debian's Chromium, and the next request
// carries the PNG (Chat Completions: a user message after the tool results; Anthropic: an image
// block in the tool_result; Responses: input_image in the function_call_output).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeLlm, startTestSite, type TestSite, tempDir } from "@iris/testkit";
import { findChromium } from "@iris/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IrisProcess } from "../src/app/process.js";
import { loadProfile } from "../src/config/index.js";

function chromiumMissing(): boolean {
  try {
    findChromium(undefined, process.env.PATH);
    return false;
  } catch (err) {
    if (process.env.CI === "true") throw err;
    return true;
  }
}

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(() => site.close());

const PNG_BASE64_START = "iVBORw0KGgo";

describe.skipIf(chromiumMissing())("browser_screenshot in a session", () => {
  it.each(["chat_completions", "anthropic_messages", "responses"] as const)(
    "%s: the next request carries the PNG",
    async (apiMode) => {
      const fake = await startFakeLlm();
      const dir = tempDir("iris-shot-e2e");
      writeFileSync(
        join(dir.path, "config.yaml"),
        `browser:\n  enabled: true\nweb:\n  allow_hosts: ["${new URL(site.baseUrl).host}"]\n`,
      );
      const profile = loadProfile({
        env: { IRIS_HOME: dir.path, PATH: process.env.PATH ?? "" },
        registerSecret: () => {},
      });
      if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
      const iris = await IrisProcess.open({ profile, platform: "cli", env: {} });
      try {
        fake.enqueue(
          { toolCalls: [{ name: "browser_navigate", arguments: { url: site.url("/news/seoul-weather") } }] },
          { toolCalls: [{ name: "browser_screenshot", arguments: {} }] },
          { text: "A weather page." },
        );
        const session = iris.openSession({
          source: "test",
          cwd: dir.path,
          route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode },
        });
        await session.startSession();
        await session.send("Look at the page.");
        const last = fake.requests.at(-1);
        expect(last?.rejected).toBeUndefined();
        const body = last?.body as Record<string, unknown>;
        if (apiMode === "chat_completions") {
          const messages = body.messages as { role: string; content: unknown }[];
          const after = messages.at(-1);
          expect(after?.role).toBe("user");
          expect(JSON.stringify(after?.content)).toContain(
            `"url":"data:image/png;base64,${PNG_BASE64_START}`,
          );
          expect(messages.at(-2)?.role).toBe("tool");
        } else if (apiMode === "anthropic_messages") {
          const messages = body.messages as {
            role: string;
            content: { type: string; content?: unknown }[];
          }[];
          const result = messages.at(-1)?.content.find((b) => b.type === "tool_result");
          expect(JSON.stringify(result?.content)).toContain(
            `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${PNG_BASE64_START}`,
          );
        } else {
          const input = body.input as { type: string; output?: unknown }[];
          const output = input.filter((i) => i.type === "function_call_output").at(-1)?.output;
          expect(JSON.stringify(output)).toContain(
            `{"type":"input_image","image_url":"data:image/png;base64,${PNG_BASE64_START}`,
          );
        }
      } finally {
        await iris.close();
        await fake.close();
        dir.cleanup();
      }
    },
  );
});
