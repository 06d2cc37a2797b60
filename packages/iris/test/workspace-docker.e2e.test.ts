// terminal.backend: docker end to end, as a user runs it: `iris -p` with config.yaml choosing a
// real engine (podman system service on a unix socket, testkit/podman.ts). The model's commands
// run in the container (its own /etc), the work folder is the same files on both sides, the
// container is removed when the session ends, two Iris processes on one profile share none and a
// killed one's is removed by the next start, `iris context` names the workspace, and an engine
// that is gone fails at session start with the socket named, before any model call.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import {
  type FakeLlm,
  type Podman,
  type RecordedRequest,
  skipWithoutPodman,
  startFakeLlm,
  startPodman,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

describe.skipIf(skipWithoutPodman())("terminal.backend: docker (real podman)", () => {
  let engine: Podman;
  let fake: FakeLlm;
  let home: ReturnType<typeof tempHome>;
  let work: string;
  const config = (socket: string, extra: string[] = []) =>
    [
      "approvals:",
      "  mode: off",
      "terminal:",
      "  backend: docker",
      "  docker:",
      `    image: ${engine.image}`,
      `    socket: ${socket}`,
      "    memory: 256m",
      "    pids: 128",
      ...extra,
      "",
    ].join("\n");
  const containers = () =>
    engine.podman(["ps", "-a", "-q", "--filter", "label=iris.profile=default"]).stdout.trim();
  const until = async (ok: () => boolean) => {
    while (!ok()) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    engine = await startPodman();
    fake = await startFakeLlm();
    home = tempHome();
    work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
    home?.cleanup();
    await engine?.close();
  });

  it("runs the model's commands in the container on the bind-mounted work folder", async () => {
    writeFileSync(join(home.home, "config.yaml"), config(engine.socket));
    writeFileSync(join(work, "host.txt"), "from the host\n");
    fake.enqueue(
      {
        toolCalls: [{ name: "terminal", arguments: { command: "cat /etc/passwd host.txt > seen.txt; pwd" } }],
      },
      { toolCalls: [{ name: "read_file", arguments: { path: "seen.txt" } }] },
      { text: "done in the container" },
    );
    const r = await runIris(["-p", "look around", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.stderr).not.toMatch(/unavailable/);
    expect(r.stdout).toContain("done in the container");
    // The container's own /etc/passwd (the test image's), written into this machine's work folder.
    expect(readFileSync(join(work, "seen.txt"), "utf8")).toBe(
      "root:x:0:0:root:/root:/bin/bash\nfrom the host\n",
    );
    const toolResults = JSON.stringify(fake.requests.slice(1).map((q) => q.body));
    expect(toolResults).toContain(`${work}\\n[exit code: 0]`);
    expect(toolResults).toContain("1|root:x:0:0:root:/root:/bin/bash");
    expect(JSON.stringify(fake.requests[0]?.body)).toContain(`Workspace: docker ${engine.image}`);
    // The session's container went with the session.
    expect(containers()).toBe("");
  }, 90_000);

  it("the container gets only the variables env_passthrough names, not the profile's secrets", async () => {
    writeFileSync(join(home.home, "config.yaml"), config(engine.socket, ["  env_passthrough: [PASSED_VAR]"]));
    writeFileSync(join(home.home, ".env"), "SECRET_TOKEN=s3cr3t-value\nPASSED_VAR=passed-value\n", {
      mode: 0o600,
    });
    const before = fake.requests.length;
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: 'echo "[$SECRET_TOKEN][$PASSED_VAR]"' } }] },
      { text: "printed" },
    );
    const r = await runIris(["-p", "print them", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home, SECRET_TOKEN: "s3cr3t-value" },
      cwd: work,
    });
    expect(r.stdout).toContain("printed");
    const result = JSON.stringify(fake.requests.slice(before + 1).map((q) => q.body));
    expect(result).toContain("[][passed-value]");
    expect(result).not.toContain("s3cr3t-value");
  }, 60_000);

  it("iris doctor lists the containers a killed Iris left and --repair removes them", async () => {
    writeFileSync(join(home.home, "config.yaml"), config(engine.socket));
    const made = engine.podman([
      "run",
      "-d",
      "--network",
      "none",
      "--label",
      "iris.profile=default",
      "--label",
      "iris.scope=session",
      "--label",
      "iris.session=gone-session",
      "--label",
      `iris.owner=${hostname()}:2147483646`,
      engine.image,
      "sleep",
      "1000",
    ]);
    expect(made.status).toBe(0);
    const env = { IRIS_HOME: home.home };
    const listed = await runIris(["doctor"], { env, cwd: work });
    expect(listed.stdout).toMatch(
      /docker workspace.*engine on .* answers; image localhost\/iris-test:1 is there/,
    );
    expect(listed.stdout).toContain("1 container(s) left by an Iris process that is gone");
    expect(listed.stdout).toContain("session gone-session");
    expect(containers()).not.toBe("");
    const repaired = await runIris(["doctor", "--repair"], { env, cwd: work });
    expect(repaired.stdout).toContain("removed 1 container(s) left by an Iris process that is gone");
    expect(containers()).toBe("");
  }, 60_000);

  it("two Iris processes on one profile get a container each; a killed one's goes at the next start", async () => {
    const shared = join(home.home, "shared");
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, "note.txt"), "a shared note\n");
    writeFileSync(
      join(home.home, "config.yaml"),
      config(engine.socket, ["    mounts:", `      - {host: ${shared}, container: /data, read_only: true}`]),
    );
    type Message = { role: string; content?: unknown };
    const messagesOf = (r: RecordedRequest) => (r.body as { messages: Message[] }).messages;
    const asked = (r: RecordedRequest, who: string) =>
      messagesOf(r).some((m) => m.role === "user" && JSON.stringify(m.content).includes(who));
    const afterTool = (r: RecordedRequest) => messagesOf(r).at(-1)?.role === "tool";
    // A marks its container and then waits on the model; B looks for A's mark in its own.
    fake.setHandler((r) => {
      if (asked(r, "as A"))
        return afterTool(r)
          ? { fault: "stall" }
          : {
              toolCalls: [
                {
                  name: "terminal",
                  arguments: {
                    command:
                      "echo from-A > /tmp/who; cat /data/note.txt; touch /data/new 2>/dev/null || echo ro",
                  },
                },
              ],
            };
      if (asked(r, "as B"))
        return afterTool(r)
          ? { text: "B done" }
          : { toolCalls: [{ name: "terminal", arguments: { command: "cat /tmp/who || echo no-mark" } }] };
      return { text: "C done" };
    });
    try {
      const env = { IRIS_HOME: home.home };
      const route = routeArgs(fake.baseUrl, "chat_completions");
      let a: ChildProcess | undefined;
      const aRun = runIris(["-p", "as A", ...route], { env, cwd: work, onSpawn: (c) => (a = c) });
      const from = fake.requests.length;
      await until(() => fake.requests.slice(from).some((r) => asked(r, "as A") && afterTool(r)));
      const aContainer = containers();
      expect(aContainer.split("\n")).toHaveLength(1);
      // terminal.docker's memory, pids and mounts (read-only) are the container's.
      const limits = engine.podman([
        "inspect",
        aContainer,
        "--format",
        "{{.HostConfig.Memory}} {{.HostConfig.PidsLimit}}",
      ]);
      expect(limits.stdout.trim()).toBe(`${256 * 1024 * 1024} 128`);
      const aSaw = JSON.stringify(
        fake.requests.filter((r) => asked(r, "as A") && afterTool(r)).map((r) => messagesOf(r).at(-1)),
      );
      expect(aSaw).toContain("a shared note\\nro\\n");
      expect(existsSync(join(shared, "new"))).toBe(false);

      const b = await runIris(["-p", "as B", ...route], { env, cwd: work });
      expect(b.stdout).toContain("B done");
      const bSaw = fake.requests
        .filter((r) => asked(r, "as B") && afterTool(r))
        .map((r) => messagesOf(r).at(-1));
      expect(JSON.stringify(bSaw)).toContain("no-mark");
      expect(JSON.stringify(bSaw)).not.toContain("from-A");
      // B's start left A's container alone (its owner lives) and B's own went with B.
      expect(containers()).toBe(aContainer);

      a?.kill("SIGKILL");
      expect((await aRun).signal).toBe("SIGKILL");
      // A could not clean up: its container runs on until the next start finds its owner gone.
      expect(containers()).toBe(aContainer);
      const c = await runIris(["-p", "as C", ...route], { env, cwd: work });
      expect(c.stdout).toContain("C done");
      expect(containers()).toBe("");
    } finally {
      fake.setHandler(undefined);
    }
  }, 120_000);

  it("iris context names the workspace", async () => {
    writeFileSync(join(home.home, "config.yaml"), config(engine.socket));
    const r = await runIris(["context", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.stdout).toMatch(/workspace\s+docker localhost\/iris-test:1 \(network none, session container\)/);
  }, 30_000);

  it("an engine socket that is gone fails at session start naming the socket: no model call", async () => {
    const gone = join(engine.dir, "gone.sock");
    writeFileSync(join(home.home, "config.yaml"), config(gone));
    const before = fake.requests.length;
    const r = await runIris(
      ["-p", "touch should-not-exist", ...routeArgs(fake.baseUrl, "chat_completions")],
      {
        env: { IRIS_HOME: home.home },
        cwd: work,
      },
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`the docker workspace (socket ${gone}) is unavailable`);
    expect(fake.requests.length).toBe(before);
    expect(existsSync(join(work, "should-not-exist"))).toBe(false);
  }, 60_000);
});
