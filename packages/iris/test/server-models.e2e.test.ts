// A custom endpoint's models come from its own server (GET /v1/models): `iris setup` asks it (and
// so checks the endpoint), `iris models` lists it, `/model` offers it; `/model x/y` with no
// provider x is an error unless the server serves a model of that name.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runIris, tempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";

const KEY = "sk-mybox-secret-5678";
const SERVED = ["fake-model", "Qwen/Qwen3-8B", "gpt-fake"];
let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
const ptys = trackedPtys();
beforeEach(async () => {
  fake = await startFakeLlm({ apiKey: KEY, models: SERVED });
  home = tempHome();
});
afterEach(async () => {
  ptys.killOpen();
  await fake.close();
  home.cleanup();
});

const iris = (args: string[], stdin?: string, env: Record<string, string> = {}) =>
  runIris(args, {
    env: { IRIS_HOME: home.home, ...env },
    cwd: home.home,
    ...(stdin !== undefined ? { stdin } : {}),
  });
const modelGets = () => fake.requests.filter((r) => r.apiMode === "models");

/** config.yaml for provider mybox at `url`, its key in .env. */
function myboxHome(url = fake.baseUrl, key = KEY): void {
  writeFileSync(
    join(home.home, "config.yaml"),
    `model:\n  provider: mybox\n  name: fake-model\nproviders:\n  mybox:\n    base_url: ${url}\n    api_mode: chat_completions\n    api_key_env: MYBOX_KEY\n`,
  );
  writeFileSync(join(home.home, ".env"), `MYBOX_KEY=${key}\n`, { mode: 0o600 });
}

describe("iris setup on a custom endpoint", () => {
  it("asks the endpoint for its models with the key and offers them by number", async () => {
    const r = await iris(["setup"], `custom\nmybox\n${fake.baseUrl}\n1\nMYBOX_KEY\n${KEY}\n3\n`);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("the endpoint answers: 3 models");
    expect(r.stdout).toMatch(/1\. fake-model[\s\S]*2\. Qwen\/Qwen3-8B[\s\S]*3\. gpt-fake/);
    expect(r.stdout).toContain("Saved model mybox/gpt-fake");
    expect(readFileSync(join(home.home, "config.yaml"), "utf8")).toMatch(/name: gpt-fake/);
    expect(modelGets().at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("says what is wrong with an endpoint that does not answer, and still finishes", async () => {
    const dead = await startFakeLlm();
    const url = dead.baseUrl;
    await dead.close();
    const r = await iris(["setup"], `custom\nmybox\n${url}\n1\nMYBOX_KEY\n${KEY}\nmy-model\n`);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`! GET ${url}/models failed: ECONNREFUSED`);
    expect(r.stdout).toContain("Saved model mybox/my-model");
  });

  it("names the endpoint's 401 for a wrong key without printing the key", async () => {
    const r = await iris(
      ["setup"],
      `custom\nmybox\n${fake.baseUrl}\n1\nMYBOX_KEY\nsk-wrong-key-0000\nfake-model\n`,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`! GET ${fake.baseUrl}/models answered HTTP 401`);
    expect(r.stdout).not.toContain("sk-wrong-key-0000");
  });
});

describe("iris models on a custom endpoint", () => {
  it("lists what the server serves, for --provider and for the configured provider", async () => {
    myboxHome();
    const one = await iris(["models", "--provider", "mybox"]);
    expect(one.stderr).toBe("");
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(
      `models served by mybox at ${fake.baseUrl}:\n  mybox/fake-model\n  mybox/Qwen/Qwen3-8B\n  mybox/gpt-fake\n`,
    );
    const all = await iris(["models"]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/anthropic\/claude[\s\S]*models served by mybox[\s\S]*mybox\/gpt-fake\n$/);
  });

  it("asks a local server (vLLM moved to another port, with its key) instead of the catalogue", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      `providers:\n  vllm: {base_url: '${fake.baseUrl}', api_key_env: VLLM_API_KEY}\n`,
    );
    const r = await iris(["models", "--provider", "vllm"], undefined, { VLLM_API_KEY: KEY });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      `models served by vllm at ${fake.baseUrl}:\n  vllm/fake-model\n  vllm/Qwen/Qwen3-8B\n  vllm/gpt-fake\n`,
    );
    expect(modelGets().at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("exits 1 with the server's error when the key is wrong, the key never shown", async () => {
    myboxHome(fake.baseUrl, "sk-wrong-key-0000");
    const r = await iris(["models", "--provider", "mybox"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^iris: mybox: GET \S+\/models answered HTTP 401: /);
    expect(r.stderr + r.stdout).not.toContain("sk-wrong-key-0000");
  });
});

describe("/model on a custom endpoint", () => {
  it("lists the server's models, switches by number, and refuses an unknown provider", async () => {
    myboxHome();
    const t = ptys.start([], { IRIS_HOME: home.home }, home.home);
    await t.waitFor("› ");
    t.type("/model\r");
    await t.waitFor(
      /1 +mybox\/fake-model {2}\(current\)[\s\S]*2 +mybox\/Qwen\/Qwen3-8B[\s\S]*3 +mybox\/gpt-fake/,
    );
    await t.waitFor("switch to");
    t.type("3\r");
    await t.waitFor("now using mybox/gpt-fake");
    t.type("/model nosuch/thing\r");
    await t.waitFor("iris: unknown provider 'nosuch'");
    await t.waitFor("for a model named 'nosuch/thing' of mybox: /model mybox/nosuch/thing");
    expect(t.screen()).not.toContain("now using mybox/nosuch/thing");
    // A name the server serves with a slash in it is its model.
    t.type("/model Qwen/Qwen3-8B\r");
    await t.waitFor("mybox serves 'Qwen/Qwen3-8B': taken as its model");
    await t.waitFor("now using mybox/Qwen/Qwen3-8B");
    t.type("/model mybox/nosuch/thing\r");
    await t.waitFor("now using mybox/nosuch/thing");
    fake.enqueue({ text: "served" });
    t.type("hi\r");
    await t.waitFor(/served[\s\S]*› /);
    const chat = fake.requests.filter((r) => r.apiMode === "chat_completions");
    expect((chat.at(-1)!.body as { model: string }).model).toBe("nosuch/thing");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
