// Exit never waits long on an MCP server (SPEC T): a stopped HTTP server (real server-everything
// over streamable HTTP, started then killed) and a stdio server that takes long to start must not
// keep `iris -p`, `iris mcp list` or the chat's /exit from ending promptly.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { binScript } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";
import { renderScreen } from "./vt-screen.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let fake: FakeLlm;
let home: TempHome;
let work: string;
let close: () => Promise<void>;
const ptys = trackedPtys();
beforeEach(async () => {
  ({ fake, home, work, close } = await fakeHome(true));
});
afterEach(async () => {
  ptys.killOpen();
  await close();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** A real streamable-HTTP MCP server that answered once and is now stopped: its URL. */
async function stoppedHttpServer(): Promise<string> {
  const port = await freePort();
  const proc: ChildProcess = spawn(
    process.execPath,
    [binScript("@modelcontextprotocol/server-everything"), "streamableHttp"],
    { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening|running/i.test(seen) && seen.includes(String(port))) resolve();
    };
    proc.stderr?.on("data", onData);
    proc.stdout?.on("data", onData);
    proc.once("exit", (code) => reject(new Error(`server exited (${code}): ${seen}`)));
  });
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGKILL");
  await exited;
  return `http://127.0.0.1:${port}/mcp`;
}

/** A stdio server that never answers the handshake (as one still starting for minutes). */
const slowStdio = {
  command: process.execPath,
  args: ["-e", "setInterval(() => {}, 1000)"],
  timeout_s: 600,
};

/** Seconds the promise took; the bound asserted is far above a normal exit and far below the server's. */
async function timed<T>(p: Promise<T>): Promise<[T, number]> {
  const at = Date.now();
  const value = await p;
  return [value, (Date.now() - at) / 1000];
}

describe("exit does not wait on MCP servers", () => {
  it("iris -p and iris mcp list end promptly with a stopped HTTP server and a slow stdio one", async () => {
    const url = await stoppedHttpServer();
    writeFileSync(
      join(home.home, "config.yaml"),
      JSON.stringify({ mcp_servers: { down: { url, timeout_s: 600 }, slow: slowStdio } }),
    );
    fake.enqueue({ text: "the answer" });
    const [r, secs] = await timed(
      runIris(["-p", "hi", ...routeArgs(fake.baseUrl, "chat_completions")], {
        env: { IRIS_HOME: home.home },
        cwd: work,
      }),
    );
    expect(r.stdout).toBe("the answer\n");
    expect(r.code).toBe(0);
    expect(secs).toBeLessThan(40);
    const [list, listSecs] = await timed(runIris(["mcp", "list"], { env: { IRIS_HOME: home.home } }));
    expect(list.stdout).toMatch(/^down {2}\S+ {2}http/m);
    expect(list.stdout).toMatch(/^slow {2}\S+ {2}stdio/m);
    expect(listSecs).toBeLessThan(40);
  });

  it("the chat's /exit ends promptly with a stopped HTTP server and a slow stdio one", async () => {
    const url = await stoppedHttpServer();
    writeFileSync(
      join(home.home, "config.yaml"),
      JSON.stringify({ mcp_servers: { down: { url }, slow: slowStdio } }),
    );
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    // /mcp names the server, its state and why it has no tools.
    // (Asked again while the server is still being tried: its last error comes with the failure.)
    for (let tries = 1; ; tries++) {
      t.type("/mcp\r");
      const failed = t.waitFor(/last error: .*(ECONNREFUSED|fetch failed|connect)/i, 3000);
      if (
        await failed.then(
          () => true,
          () => tries >= 5 && Promise.reject(new Error("no last error")),
        )
      )
        break;
    }
    expect(renderScreen(t.raw()).some((r) => /^down {2}\S+ {2}http {2}0 tools$/.test(r))).toBe(true);
    t.type("/exit\r");
    const [code, secs] = await timed(t.exited);
    expect(code).toBe(0);
    expect(secs).toBeLessThan(40);
  });
});
