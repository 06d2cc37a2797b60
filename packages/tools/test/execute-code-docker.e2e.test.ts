// execute_code on the docker workspace (podman system service, an image with this machine's
// python3): the program runs in the container (its own /etc), reaches the host's tool channel
// through the bind-mounted work folder, and has no network (the container's NetworkMode none).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Podman, skipWithoutPodman, startPodman } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../src/approval/policy.js";
import executeCode from "../src/builtin/execute_code.js";
import { dispatchToolCall } from "../src/dispatch/dispatch.js";
import { toolEnvironment } from "../src/environment.js";
import { makeTestContext } from "../src/fs/test-context.js";
import { loadBuiltinTools } from "../src/registry/load-builtin.js";
import { ToolRegistry } from "../src/registry/registry.js";
import { type DockerWorkspace, dockerWorkspace } from "../src/workspace/docker.js";

const text = (r: unknown) => (typeof r === "string" ? r : (r as { content: string }).content);

describe.skipIf(skipWithoutPodman())("execute_code in the docker workspace's container", () => {
  let engine: Podman;
  let root: string;
  let ws: DockerWorkspace;
  let registry: ToolRegistry;

  beforeAll(async () => {
    engine = await startPodman({ withPython: true });
    root = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-code-docker-")));
    ws = dockerWorkspace({
      socket: engine.socket,
      image: engine.image,
      profile: "code",
      scope: "session",
      sessionId: "code-1",
      hostRoot: root,
    });
    await ws.connect();
    registry = new ToolRegistry({ environment: toolEnvironment(), logger: { warn: () => {} } });
    await loadBuiltinTools(registry);
    writeFileSync(path.join(root, "data.txt"), "from the work folder\n");
  }, 120_000);
  afterAll(async () => {
    await ws?.close();
    await engine?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("runs in the container and calls tools on the same workspace", async () => {
    const ctx = makeTestContext({ cwd: root, workspace: ws });
    ctx.environment = toolEnvironment();
    const policy = createApprovalPolicy({ mode: "off" });
    ctx.callTool = (name, argumentsJson) => dispatchToolCall(registry, { name, argumentsJson }, ctx, policy);
    const r = await executeCode.execute(
      {
        language: "python",
        code: [
          "import socket",
          "print('lines', len(open('/etc/passwd').read().splitlines()))",
          "print(iris.read_file(path='data.txt'))",
          "print(iris.terminal(command='cat /etc/passwd | wc -l'))",
          "try:",
          "    socket.create_connection(('10.0.2.2', 80), timeout=2)",
          "    print('net: connected')",
          "except OSError:",
          "    print('net: unreachable')",
        ].join("\n"),
      },
      ctx,
    );
    expect(text(r)).toContain("lines 1\n");
    expect(text(r)).toContain("1|from the work folder");
    expect(text(r)).toContain("1\n[exit code: 0]");
    expect(text(r)).toContain("net: unreachable");
    expect(text(r)).toContain("[exit code: 0; 2 tool call(s)]");
  }, 60_000);
});
