// The docker workspace against a real engine (podman system service, testkit/podman.ts): one
// container per session found by its labels, made again when removed by hand, removed when the
// session ends, none left by a killed Iris after the next start, no network by default, and an
// engine that is gone said at session start with the socket named; and an unprivileged user's
// engine (rootless podman) serving the same workspace.
import { chownSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { type Podman, skipWithoutPodman, skipWithoutRootlessPodman, startPodman } from "@iris/testkit";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../src/approval/policy.js";
import { makeTestContext } from "../src/fs/test-context.js";
import { type DockerWorkspace, dockerWorkspace } from "../src/workspace/docker.js";
import { LABEL_OWNER, LABEL_PROFILE, LABEL_SESSION } from "../src/workspace/docker-container.js";
import { isWorkspaceUnavailable } from "../src/workspace/errors.js";

describe.skipIf(skipWithoutPodman())("docker workspace on podman", () => {
  let engine: Podman;
  let root: string;
  let docker: Docker;
  const open: DockerWorkspace[] = [];
  const make = (sessionId: string, extra: Partial<Parameters<typeof dockerWorkspace>[0]> = {}) => {
    const ws = dockerWorkspace({
      socket: engine.socket,
      image: engine.image,
      profile: "p1",
      scope: "session",
      sessionId,
      hostRoot: root,
      ...extra,
    });
    open.push(ws);
    return ws;
  };
  const ofProfile = async () =>
    docker.listContainers({ all: true, filters: { label: [`${LABEL_PROFILE}=p1`] } });
  const run = async (ws: DockerWorkspace, command: string) =>
    (await ws.exec({ command, cwd: root, timeoutMs: 20_000 })).output;

  beforeAll(async () => {
    engine = await startPodman();
    docker = new Docker({ socketPath: engine.socket });
    root = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-docker-ws-")));
  }, 60_000);
  afterAll(async () => {
    for (const ws of open) await ws.close().catch(() => undefined);
    await engine?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("runs in a container with the work folder bind-mounted, no network, labelled", async () => {
    const ws = make("s-a");
    await ws.connect();
    writeFileSync(path.join(root, "from-host.txt"), "hello from the host\n");
    expect(await run(ws, "cat from-host.txt")).toBe("hello from the host\n");
    await run(ws, "echo made inside > from-container.txt");
    expect((await ws.readFile(path.join(root, "from-container.txt"), { maxBytes: 100 })).ok).toBe(true);
    // The container's own files are not this machine's.
    expect(await run(ws, "cat /etc/passwd")).toBe("root:x:0:0:root:/root:/bin/bash\n");
    const etc = await ws.readFile("/etc/passwd", { maxBytes: 1000 });
    expect(etc.ok && etc.data.toString("utf8")).toBe("root:x:0:0:root:/root:/bin/bash\n");
    await ws.writeFile("/tmp/inside/only.txt", "container side\n");
    expect(await run(ws, "cat /tmp/inside/only.txt")).toBe("container side\n");
    expect((await ws.list("/tmp/inside")).map((e) => e.name)).toEqual(["only.txt"]);
    // network none: only the loopback interface.
    expect((await run(ws, "ls /sys/class/net")).trim()).toBe("lo");
    const [c] = await ofProfile();
    expect(c?.Labels[LABEL_SESSION]).toBe("s-a");
    expect(c?.Labels[LABEL_OWNER]).toBe(`${hostname()}:${process.pid}`);
  });

  it("two sessions of one profile share no container; a second open of one session finds its own", async () => {
    const a = make("s-a");
    const b = make("s-b");
    await run(a, "echo a > /tmp/who");
    await run(b, "echo b > /tmp/who");
    expect(await run(a, "cat /tmp/who")).toBe("a\n");
    expect(await run(b, "cat /tmp/who")).toBe("b\n");
    expect((await ofProfile()).length).toBe(2);
    await b.close();
    expect((await ofProfile()).map((c) => c.Labels[LABEL_SESSION])).toEqual(["s-a"]);
  });

  it("a container removed by hand is made again on the next command", async () => {
    const ws = make("s-a");
    const [c] = await ofProfile();
    expect(engine.podman(["rm", "-f", "-t", "0", c?.Id as string]).status).toBe(0);
    expect(await run(ws, "echo back")).toBe("back\n");
    const now = await ofProfile();
    expect(now.length).toBe(1);
    expect(now[0]?.Id).not.toBe(c?.Id);
  });

  it("a timeout kills the command's whole group in the container", async () => {
    const ws = make("s-a");
    const r = await ws.exec({ command: "sleep 60 & sleep 61; echo never", cwd: root, timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    expect(r.output).not.toContain("never");
    // ps sees every process of the container (PID 1 included), so a count of 0 means gone.
    expect(await run(ws, "ps -e -o args=")).toContain("sleep 2147483647");
    let left = "";
    for (let i = 0; i < 50; i++) {
      left = await run(ws, "ps -e -o args= | grep -c '^sleep 6[01]' || true");
      if (left.trim() === "0") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(left.trim()).toBe("0");
  });

  it("a container of a killed Iris (its owner pid gone) is removed when the next session starts", async () => {
    const stale = await docker.createContainer({
      Image: engine.image,
      Cmd: ["sleep", "1000"],
      Labels: {
        [LABEL_PROFILE]: "p1",
        "iris.scope": "session",
        [LABEL_SESSION]: "s-dead",
        [LABEL_OWNER]: `${hostname()}:2147483646`,
      },
      HostConfig: { NetworkMode: "none" },
    });
    await stale.start();
    await make("s-c").connect();
    const sessions = (await ofProfile()).map((c) => c.Labels[LABEL_SESSION]).sort();
    expect(sessions).not.toContain("s-dead");
    expect(sessions).toContain("s-c");
  });

  it("profile scope: sessions of a profile share one container, stopped when the last one ends; env is only what is given", async () => {
    process.env.IRIS_TEST_HOST_ONLY = "host";
    const a = make("p-a", { scope: "profile", env: { PASSED: "given" } });
    const b = make("p-b", { scope: "profile" });
    await a.connect();
    await b.connect();
    await run(a, "echo shared > /tmp/profile-scope");
    expect(await run(b, "cat /tmp/profile-scope")).toBe("shared\n");
    expect(await run(a, 'echo "$PASSED|$IRIS_TEST_HOST_ONLY|$PATH"')).toMatch(/^given\|\|/);
    // A killed Iris's session (a process that is gone) left its mark: it keeps nothing alive.
    await run(a, `: > /tmp/.iris-users/${hostname()}:999999999@s-killed`);
    expect((await run(a, "ls /tmp/.iris-users")).split("\n").filter(Boolean)).toHaveLength(3);
    const profileScoped = async () => (await ofProfile()).filter((c) => c.Labels["iris.scope"] === "profile");
    await a.close();
    // b still uses it: it runs on, with its files.
    expect((await profileScoped()).map((c) => c.State)).toEqual(["running"]);
    expect(await run(b, "cat /tmp/profile-scope")).toBe("shared\n");
    await b.close();
    expect(await profileScoped()).toEqual([]);
  });

  it("relax_approvals lets a network-less container's commands run unasked, and only then", async () => {
    const policy = createApprovalPolicy({ mode: "manual", timeoutMs: 5000 });
    const decide = async (ws: DockerWorkspace) => {
      const asked: string[] = [];
      const ctx = makeTestContext({ cwd: root, workspace: ws });
      ctx.approve = async (r) => {
        asked.push(r.command);
        return "deny";
      };
      const d = await policy.check({ name: "terminal" }, "rm -rf build", ctx);
      return { allowed: d.allowed, asked: asked.length };
    };
    expect(await decide(make("r-1", { relaxApprovals: true }))).toEqual({ allowed: true, asked: 0 });
    expect(await decide(make("r-2"))).toEqual({ allowed: false, asked: 1 });
    const bridged = make("r-3", { relaxApprovals: true, network: "bridge" });
    expect(bridged.relaxesApprovals).toBe(false);
    expect(await decide(bridged)).toEqual({ allowed: false, asked: 1 });
  });

  it("an image the engine lacks and an engine that is gone fail at session start, naming the socket", async () => {
    const noImage = make("s-x", { image: "localhost/not-there:1" });
    const e1 = await noImage.connect().catch((e: unknown) => e);
    expect(isWorkspaceUnavailable(e1)).toBe(true);
    expect((e1 as Error).message).toContain("localhost/not-there:1");
    await engine.stop();
    const down = make("s-y");
    const e2 = await down.connect().catch((e: unknown) => e);
    expect(isWorkspaceUnavailable(e2)).toBe(true);
    expect((e2 as Error).message).toContain(`socket ${engine.socket}`);
    const e3 = await down.exec({ command: "true", cwd: root, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(isWorkspaceUnavailable(e3)).toBe(true);
  });
});

describe.skipIf(skipWithoutRootlessPodman())("docker workspace on rootless podman", () => {
  it("an unprivileged user's engine runs the session's container: root inside is that user here", async () => {
    const engine = await startPodman({ rootless: true });
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-docker-rootless-")));
    chownSync(root, engine.uid, engine.gid);
    const ws = dockerWorkspace({
      socket: engine.socket,
      image: engine.image,
      profile: "rootless",
      scope: "session",
      sessionId: "r-1",
      hostRoot: root,
    });
    try {
      await ws.connect();
      const r = await ws.exec({
        command: "touch made-inside; id -u; ls /sys/class/net",
        cwd: root,
        timeoutMs: 20_000,
      });
      expect(r.output).toBe("0\nlo\n");
      // Run by root, the engine is iris-podman-test's: what the container's root makes is theirs.
      if (process.getuid?.() === 0) expect(engine.uid).not.toBe(0);
      expect(statSync(path.join(root, "made-inside")).uid).toBe(engine.uid);
      await ws.close();
      expect(engine.podman(["ps", "-a", "-q"]).stdout.trim()).toBe("");
    } finally {
      await ws.close();
      await engine.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 90_000);
});
