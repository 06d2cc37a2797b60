// The built CLI reads the web (its libraries load from node_modules, outside the bundle): `iris
// -p` with a model that calls web_extract on the local test site and the PDF on it, and `iris
// tools` naming why web_search is not offered.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestSite, type TestSite } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris } from "./helpers.js";

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(() => site.close());

describe("web tools in the built CLI", () => {
  it("iris -p: web_extract reads a page and a PDF and the model gets the Markdown", async () => {
    const { fake, home, close } = await fakeHome();
    try {
      writeFileSync(
        join(home.home, "config.yaml"),
        `web:\n  allow_hosts: ["${new URL(site.baseUrl).host}"]\n`,
      );
      fake.enqueue(
        {
          toolCalls: [
            {
              name: "web_extract",
              arguments: { urls: [site.url("/news/seoul-weather"), site.url("/docs/report.pdf")] },
            },
          ],
        },
        { text: "It is cold in Seoul." },
      );
      const r = await runIris(["-p", "weather?", ...routeArgs(fake.baseUrl, "chat_completions")], {
        env: { IRIS_HOME: home.home },
      });
      expect(r.stderr).toContain("✓ web_extract");
      expect(r.stdout).toContain("It is cold in Seoul.");
      const body = fake.requests[1]?.body as { messages: { role: string; content: string }[] };
      const result = body.messages.at(-1)?.content ?? "";
      expect(result).toContain("## 서울 날씨");
      expect(result).toMatch(/\| 서울 +\| \\?-5 +\| 2 +\|/);
      expect(result).toContain("Backpressure kept memory under 64 MB.");
    } finally {
      await close();
    }
  });

  it("iris tools says why web_search is not offered", async () => {
    const { home, close } = await fakeHome();
    try {
      writeFileSync(join(home.home, "config.yaml"), "web:\n  search:\n    backend: searxng\n");
      const r = await runIris(["tools"], { env: { IRIS_HOME: home.home } });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        /web_search +web +not offered: web\.search\.backend searxng needs web\.search\.base_url/,
      );
      expect(r.stdout).toMatch(/web_extract +web +offered/);
    } finally {
      await close();
    }
  });
});
