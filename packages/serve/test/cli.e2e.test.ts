// `iris serve` as a user starts it: the built bin on a free port, then SIGTERM; and the refusal to
// bind a non-loopback address without API keys.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashKey } from "../src/keys.js";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

let fake: FakeLlm;
let home: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempDir("iris-serve-cli-");
  writeFileSync(
    join(home.path, "config.yaml"),
    `model: {provider: openai, name: gpt-4.1-mini}\nproviders: {openai: {base_url: "${fake.baseUrl}"}}\n`,
  );
  writeFileSync(join(home.path, ".env"), "OPENAI_API_KEY=upstream\n");
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

function start(args: string[]) {
  const child = spawn(process.execPath, [IRIS_BIN, "serve", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: home.path, IRIS_HOME: home.path },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => {
      const m = /listening on (\S+)/.exec(stdout);
      if (m?.[1]) resolve(m[1]);
    });
    child.on("close", () => reject(new Error(`exited: ${stderr}`)));
  });
  return { child, exited, listening, output: () => ({ stdout, stderr }) };
}

describe("iris serve", () => {
  it("serves on a free loopback port, answers the SDK, and stops on SIGTERM", async () => {
    const s = start(["--port", "0"]);
    const url = await s.listening;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    fake.enqueue({ text: "from the bin" });
    const client = new OpenAI({ apiKey: "unused-on-loopback", baseURL: url, maxRetries: 0 });
    const r = await client.chat.completions.create({
      model: "iris",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(r.choices[0]?.message.content).toBe("from the bin");
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  }, 60_000); // a spawned process on a loaded machine

  it("refuses --host 0.0.0.0 without serve.api_keys (exit 2, says what to set)", async () => {
    const s = start(["--host", "0.0.0.0", "--port", "0"]);
    s.listening.catch(() => {});
    expect(await s.exited).toBe(2);
    expect(s.output().stderr).toContain("serve.api_keys");
  }, 60_000);

  it("hash-key prints the sha256 that serve.api_keys takes; that key then opens a non-loopback bind", async () => {
    const child = spawn(process.execPath, [IRIS_BIN, "serve", "hash-key"], {
      env: { PATH: process.env.PATH ?? "", HOME: home.path, IRIS_HOME: home.path },
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stdin.end("sk-from-stdin\n");
    await new Promise((resolve) => child.on("close", resolve));
    expect(out.trim()).toBe(hashKey("sk-from-stdin"));
    writeFileSync(
      join(home.path, "config.yaml"),
      `model: {provider: openai, name: gpt-4.1-mini}\nproviders: {openai: {base_url: "${fake.baseUrl}"}}\n` +
        `serve: {api_keys: [{name: me, sha256: ${out.trim()}}]}\n`,
    );
    const s = start(["--host", "0.0.0.0", "--port", "0"]);
    const url = (await s.listening).replace("0.0.0.0", "127.0.0.1");
    const models = (key: string) => fetch(`${url}/models`, { headers: { authorization: `Bearer ${key}` } });
    expect((await models("sk-from-stdin")).status).toBe(200);
    expect((await models("sk-other")).status).toBe(401);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  }, 60_000); // a spawned process on a loaded machine
});
