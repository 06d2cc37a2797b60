// Nothing left behind by a killed Iris (SPEC T6): a child process opens an ssh workspace on a
// real sshd, starts a background process there and is killed (SIGKILL); the background process
// outlives it on the remote side until the next session's connect() finds its folder, whose owner
// pid is gone, and kills it. So is a foreground command the killed one was running (in its own
// session it outlives the dropped connection; its pid file is in the same folder).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Sshd, skipWithoutSshd, startSshd, tempDir } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sshWorkspace } from "../src/workspace/ssh.js";

const SSH_MODULE = fileURLToPath(new URL("../src/workspace/ssh.ts", import.meta.url));

describe.skipIf(skipWithoutSshd())("a killed Iris leaves no background process on the ssh workspace", () => {
  let sshd: Sshd;
  const dir = tempDir("iris-orphans");
  const settings = () => ({
    host: sshd.host,
    port: sshd.port,
    user: sshd.user,
    keyPath: sshd.keyPath,
    knownHosts: sshd.knownHosts,
    remoteDir: sshd.home,
  });
  beforeAll(async () => {
    sshd = await startSshd();
  }, 60_000);
  afterAll(async () => {
    await sshd?.close();
    dir.cleanup();
  });

  /** A child Iris that connects, runs `start` (which prints "started") and is then killed. */
  const killedIris = (name: string, start: string[]) => {
    const script = path.join(dir.path, `${name}.mts`);
    writeFileSync(
      script,
      [
        `import { sshWorkspace } from ${JSON.stringify(SSH_MODULE)};`,
        `const ws = sshWorkspace(${JSON.stringify(settings())});`,
        "await ws.connect();",
        ...start,
        "setInterval(() => {}, 1000);",
      ].join("\n"),
    );
    return script;
  };

  it("the next session's connect kills a foreground command the killed one was running", async () => {
    const marker = 5000 + (process.pid % 997);
    const script = killedIris("foreground", [
      `void ws.exec({ command: "echo up; sleep ${marker}", cwd: "/", timeoutMs: 600000,`,
      '  onData: (d) => d.includes("up") && process.stdout.write("started\\n") });',
    ]);
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (b: Buffer) => b.toString().includes("started") && resolve());
      child.once("exit", (code) => reject(new Error(`the child exited ${code} before starting`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const count = `ps -eo args= | grep -c '^sleep ${marker}$' || true`;
    const probe = sshWorkspace(settings());
    // The dropped connection did not take it: it still runs on the remote side.
    expect((await probe.exec({ command: count, cwd: "/", timeoutMs: 10_000 })).output.trim()).toBe("1");
    await probe.close();
    const next = sshWorkspace(settings());
    await next.connect();
    expect((await next.exec({ command: count, cwd: "/", timeoutMs: 10_000 })).output.trim()).toBe("0");
    await next.close();
  }, 60_000);

  it("the next session's connect kills what the killed one started", async () => {
    const marker = 3000 + (process.pid % 997);
    const script = killedIris("background", [
      `await ws.processes.start({ command: "sleep ${marker}", cwd: ${JSON.stringify(sshd.home)}, taskId: "t" });`,
      'process.stdout.write("started\\n");',
    ]);
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (b: Buffer) => b.toString().includes("started") && resolve());
      child.once("exit", (code) => reject(new Error(`the child exited ${code} before starting`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));

    const count = `ps -eo args= | grep -c '^sleep ${marker}$' || true`;
    const probe = sshWorkspace(settings());
    const before = await probe.exec({
      command: `${count}; ls -d /tmp/iris-procs-*.${child.pid}-* | wc -l`,
      cwd: "/",
      timeoutMs: 10_000,
    });
    expect(before.output.trim()).toBe("1\n1");
    await probe.close();

    const next = sshWorkspace(settings());
    await next.connect();
    const after = await next.exec({ command: count, cwd: "/", timeoutMs: 10_000 });
    expect(after.output.trim()).toBe("0");
    const left = await next.exec({
      command: `ls -d /tmp/iris-procs-*.${child.pid}-* 2>/dev/null | wc -l`,
      cwd: "/",
      timeoutMs: 10_000,
    });
    expect(left.output.trim()).toBe("0");
    await next.close();
  }, 60_000);
});
