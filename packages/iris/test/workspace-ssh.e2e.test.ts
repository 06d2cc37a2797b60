// terminal.backend: ssh end to end, as a user runs it: `iris -p` with config.yaml choosing a real
// sshd on a loopback port; the model's terminal and read_file calls run on the remote side (a
// marker file lands in remote_dir, made on connect, not this machine's work folder), `iris context`
// names the workspace, secrets of the profile stay home (only env_passthrough goes), `iris doctor`
// lists and --repair kills what a killed Iris left running there, and an unknown host key fails
// at session start, before any model call.
import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  type RecordedRequest,
  type Sshd,
  skipWithoutSshd,
  startFakeLlm,
  startSshd,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

describe.skipIf(skipWithoutSshd())("terminal.backend: ssh (real sshd)", () => {
  let sshd: Sshd;
  let fake: FakeLlm;
  let home: ReturnType<typeof tempHome>;
  let work: string;
  let remoteDir: string;
  const config = (knownHosts: string, mode = "off", extra: string[] = []) =>
    [
      "approvals:",
      `  mode: ${mode}`,
      "terminal:",
      "  backend: ssh",
      ...extra,
      "  ssh:",
      `    host: ${sshd.host}`,
      `    port: ${sshd.port}`,
      `    user: ${sshd.user}`,
      `    key_path: ${sshd.keyPath}`,
      `    known_hosts: ${knownHosts}`,
      `    remote_dir: ${remoteDir}`,
      "",
    ].join("\n");

  beforeAll(async () => {
    sshd = await startSshd();
    fake = await startFakeLlm();
    home = tempHome();
    work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
    remoteDir = `${sshd.home}/iris-cli-${process.pid}-${Date.now()}`;
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
    home?.cleanup();
    await sshd?.close();
  });

  it("runs the model's commands and reads its files on the remote host", async () => {
    writeFileSync(join(home.home, "config.yaml"), config(sshd.knownHosts));
    fake.enqueue(
      {
        toolCalls: [
          {
            name: "terminal",
            arguments: { command: "whoami > marker.txt && pwd" },
          },
        ],
      },
      { toolCalls: [{ name: "read_file", arguments: { path: "marker.txt" } }] },
      { text: "done remotely" },
    );
    const r = await runIris(["-p", "leave a marker", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.stderr).not.toMatch(/unavailable/);
    expect(r.stdout).toContain("done remotely");
    const toolResults = JSON.stringify(fake.requests.slice(1).map((q) => q.body));
    expect(toolResults).toContain(`${remoteDir}\\n[exit code: 0]`);
    expect(toolResults).toContain(`1|${sshd.user}`);
    expect(existsSync(join(work, "marker.txt"))).toBe(false);
    // The system prompt says where the tools run.
    expect(JSON.stringify(fake.requests[0]?.body)).toContain(
      `Workspace: ssh ${sshd.user}@${sshd.host}:${sshd.port}`,
    );
  }, 60_000);

  it("approvals judge paths against remote_dir: a write there runs unasked, one outside is asked (and denied)", async () => {
    writeFileSync(join(home.home, "config.yaml"), config(sshd.knownHosts, "manual"));
    const before = fake.requests.length;
    fake.enqueue(
      { toolCalls: [{ name: "write_file", arguments: { path: "inside.txt", content: "in remote_dir\n" } }] },
      {
        toolCalls: [{ name: "write_file", arguments: { path: `${sshd.home}/outside.txt`, content: "no\n" } }],
      },
      { text: "wrote what I could" },
    );
    const r = await runIris(["-p", "write two files", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.stdout).toContain("wrote what I could");
    const results = fake.requests.slice(before + 1).map((q) => JSON.stringify(q.body));
    expect(results[0]).toContain(`Wrote 14 bytes to ${remoteDir}/inside.txt.`);
    expect(results[1]).toMatch(/not run: /);
    expect(existsSync(`${sshd.home}/outside.txt`)).toBe(false);
  }, 60_000);

  it("the remote shell gets only the variables env_passthrough names, not the profile's secrets", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      config(sshd.knownHosts, "off", ["  env_passthrough: [PASSED_VAR]"]),
    );
    writeFileSync(join(home.home, ".env"), "SECRET_TOKEN=s3cr3t-ssh-value\nPASSED_VAR=passed-value\n", {
      mode: 0o600,
    });
    const before = fake.requests.length;
    fake.enqueue(
      {
        toolCalls: [
          {
            name: "terminal",
            arguments: { command: 'echo "[$SECRET_TOKEN][$PASSED_VAR][$OPENAI_API_KEY]"' },
          },
        ],
      },
      { text: "printed" },
    );
    const r = await runIris(["-p", "print them", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home, SECRET_TOKEN: "s3cr3t-ssh-value", OPENAI_API_KEY: "sk-never-remote" },
      cwd: work,
    });
    rmSync(join(home.home, ".env"));
    expect(r.stdout).toContain("printed");
    const result = JSON.stringify(fake.requests.slice(before + 1).map((q) => q.body));
    expect(result).toContain("[][passed-value][]");
    expect(result).not.toContain("s3cr3t-ssh-value");
    expect(result).not.toContain("sk-never-remote");
  }, 60_000);

  it("iris doctor lists what a killed Iris left running on the remote host and --repair kills it", async () => {
    writeFileSync(join(home.home, "config.yaml"), config(sshd.knownHosts));
    const marker = 4000 + (process.pid % 997);
    const running = () =>
      spawnSync("ps", ["-eo", "args="], { encoding: "utf8" })
        .stdout.split("\n")
        .filter((l) => l.trim() === `sleep ${marker}`).length;
    type Message = { role: string };
    const afterTool = (r: RecordedRequest) =>
      (r.body as { messages: Message[] }).messages.at(-1)?.role === "tool";
    fake.setHandler((r) =>
      afterTool(r)
        ? { fault: "stall" }
        : { toolCalls: [{ name: "terminal", arguments: { command: `sleep ${marker}`, background: true } }] },
    );
    try {
      const env = { IRIS_HOME: home.home };
      let iris: ChildProcess | undefined;
      const from = fake.requests.length;
      const killed = runIris(["-p", "start it", ...routeArgs(fake.baseUrl, "chat_completions")], {
        env,
        cwd: work,
        onSpawn: (c) => (iris = c),
      });
      while (!fake.requests.slice(from).some(afterTool)) await new Promise((r) => setTimeout(r, 20));
      iris?.kill("SIGKILL");
      await killed;
      // The sshd is on loopback: the remote side's processes are this machine's.
      expect(running()).toBe(1);
      const listed = await runIris(["doctor"], { env, cwd: work });
      expect(listed.stdout).toMatch(/ssh workspace.*answers/);
      expect(listed.stdout).toContain(
        `1 Iris process(es) that are gone left folders (and maybe processes) on ${sshd.user}@127.0.0.1:${sshd.port}`,
      );
      expect(running()).toBe(1);
      const repaired = await runIris(["doctor", "--repair"], { env, cwd: work });
      expect(repaired.stdout).toContain("killed what 1 Iris process(es) that are gone left running");
      expect(running()).toBe(0);
    } finally {
      fake.setHandler(undefined);
    }
  }, 60_000);

  it("iris context names the workspace", async () => {
    writeFileSync(join(home.home, "config.yaml"), config(sshd.knownHosts));
    const r = await runIris(["context", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.stdout).toMatch(
      new RegExp(`workspace\\s+ssh ${sshd.user}@127\\.0\\.0\\.1:${sshd.port} in ${remoteDir}`),
    );
  }, 30_000);

  it("an unknown host key fails at session start naming the host: no model call, no command", async () => {
    // A known_hosts that lists other hosts only (a changed key: the tools' ssh workspace test).
    const unknown = join(home.home, "other_known_hosts");
    writeFileSync(
      unknown,
      readFileSync(sshd.knownHosts, "utf8").replace(`]:${sshd.port} `, `]:${sshd.port + 1} `),
    );
    writeFileSync(join(home.home, "config.yaml"), config(unknown));
    const before = fake.requests.length;
    const r = await runIris(
      ["-p", `touch ${remoteDir}/should-not-exist`, ...routeArgs(fake.baseUrl, "chat_completions")],
      {
        env: { IRIS_HOME: home.home },
        cwd: work,
      },
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `the ssh workspace (${sshd.user}@127.0.0.1:${sshd.port}) is unavailable: the host key of 127.0.0.1:${sshd.port} is not in ${unknown}`,
    );
    expect(fake.requests.length).toBe(before);
    expect(existsSync(`${remoteDir}/should-not-exist`)).toBe(false);
  }, 60_000);
});
