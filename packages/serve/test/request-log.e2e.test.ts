// Operators see one line per request in logs/iris.log (at logging.level info): method, path,
// status, caller and time, never the body or a key.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ALICE, type Harness, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h.close();
});

it("logs each request without its body or key", async () => {
  h = await startHarness({ logLevel: "info" });
  h.fake.enqueue({ text: "logged" });
  await h
    .client()
    .chat.completions.create({ model: "iris", messages: [{ role: "user", content: "secret-body-text" }] });
  await h
    .client("sk-wrong")
    .models.list()
    .catch(() => {});
  const log = readFileSync(join(h.home.path, "logs", "iris.log"), "utf8");
  expect(log).toContain("POST /v1/chat/completions 200");
  expect(log).toContain('"caller":"alice"');
  expect(log).toContain("GET /v1/models 401");
  expect(log).not.toContain("secret-body-text");
  expect(log).not.toContain(ALICE);
  expect(log).not.toContain("sk-wrong");
});
