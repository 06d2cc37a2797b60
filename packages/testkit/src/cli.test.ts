import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type TempDir, tempDir } from "./temp-dir.js";

const CLI = fileURLToPath(new URL("./cli.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function startCli(args: string[]): ChildProcess {
  // tsx runs the TypeScript source, so the test does not depend on a fresh build.
  const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanups.push(() => child.kill("SIGKILL"));
  return child;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      lines.close();
      resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`cli exited with ${code} before printing its URL`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString("utf8");
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stderr })));
}

function scriptFile(dir: TempDir, steps: unknown): string {
  const file = join(dir.path, "script.json");
  writeFileSync(file, JSON.stringify(steps));
  return file;
}

describe("iris-fake-llm CLI", () => {
  it("prints its URL, replays the script, then echoes, and exits on SIGTERM", async () => {
    const dir = tempDir("fake-llm-cli");
    cleanups.push(dir.cleanup);
    const file = scriptFile(dir, [{ text: "scripted one" }, { fault: "status", status: 418 }]);
    const child = startCli(["--port", "0", "--script", file]);
    const exit = exited(child);
    const baseUrl = await firstLine(child);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const ask = () =>
      fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      });
    const first = (await (await ask()).json()) as { choices: { message: { content: string } }[] };
    expect(first.choices[0]?.message.content).toBe("scripted one");
    expect((await ask()).status).toBe(418);
    const third = (await (await ask()).json()) as { choices: { message: { content: string } }[] };
    expect(third.choices[0]?.message.content).toBe("fake reply");
    child.kill("SIGTERM");
    const { code, stderr } = await exit;
    expect(code).toBe(0);
    expect(stderr).toContain("SIGTERM");
  });

  it("exits 2 with a message naming the bad step of a script", async () => {
    const dir = tempDir("fake-llm-cli");
    cleanups.push(dir.cleanup);
    const file = scriptFile(dir, [{ text: "ok" }, { fault: "explode" }]);
    const { code, stderr } = await exited(startCli(["--script", file]));
    expect(code).toBe(2);
    expect(stderr).toContain("[1].fault");
  });
});
