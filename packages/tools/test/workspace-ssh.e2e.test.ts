// The ssh workspace against a real sshd on a loopback port (test/sshd.ts): commands run on the
// remote side as its user, files go over SFTP, a dropped connection is opened again with the
// task's directory kept, and a host key that is not in known_hosts is refused.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { type Sshd, skipWithoutSshd, startSshd } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import readFile from "../src/builtin/read_file.js";
import terminal from "../src/builtin/terminal.js";
import { makeTestContext } from "../src/fs/test-context.js";
import { WorkspaceUnavailable } from "../src/workspace/errors.js";
import { type SshWorkspace, sshWorkspace } from "../src/workspace/ssh.js";

const text = (r: unknown) => (typeof r === "string" ? r : (r as { content: string }).content);

describe.skipIf(skipWithoutSshd())("ssh workspace (real sshd)", () => {
  let sshd: Sshd;
  let ws: SshWorkspace;
  let remoteDir: string;

  const settings = (over: Partial<Parameters<typeof sshWorkspace>[0]> = {}) => ({
    host: sshd.host,
    port: sshd.port,
    user: sshd.user,
    keyPath: sshd.keyPath,
    knownHosts: sshd.knownHosts,
    remoteDir,
    connectTimeoutS: 10,
    ...over,
  });

  beforeAll(async () => {
    sshd = await startSshd();
    remoteDir = path.posix.join(sshd.home, `work-${process.pid}-${Date.now()}`);
    ws = sshWorkspace(settings());
    await ws.connect();
    await ws.exec({ command: `mkdir -p ${remoteDir}`, cwd: "/", timeoutMs: 10_000 });
  }, 60_000);

  afterAll(async () => {
    await ws?.exec({ command: `rm -rf ${remoteDir}`, cwd: "/", timeoutMs: 10_000 }).catch(() => undefined);
    await ws?.close();
    await sshd?.close();
  });

  it("runs the command on the remote side as its user, in remote_dir", async () => {
    const ctx = makeTestContext({ cwd: "/nonexistent-local-dir", workspace: ws });
    const out = text(
      await terminal.execute({ command: "whoami; pwd; touch ~/iris-marker-$PPID; echo ok" }, ctx),
    );
    expect(out).toContain(`${sshd.user}\n${remoteDir}\nok`);
    expect(out).toContain("[exit code: 0]");
    expect(ws.home).toBe(sshd.home);
    if (sshd.home !== homedir()) {
      // The marker is in the remote user's home, not the test's own.
      const found = text(await terminal.execute({ command: "ls ~ | grep -c iris-marker" }, ctx));
      expect(Number(found.split("\n")[0])).toBeGreaterThan(0);
      expect(readFileSyncSafe(path.join(homedir(), "iris-marker"))).toBe(false);
    }
  });

  it("keeps cd per task, returns exit codes and reads the remote file", async () => {
    const ctx = makeTestContext({ cwd: "/nonexistent-local-dir", workspace: ws, taskId: "ssh-cd" });
    expect(
      text(await terminal.execute({ command: "mkdir -p sub && cd sub && printf '한국어\\n' > k.txt" }, ctx)),
    ).toContain(`[working directory is now ${remoteDir}/sub]`);
    expect(text(await terminal.execute({ command: "pwd; exit 3" }, ctx))).toBe(
      `${remoteDir}/sub\n[exit code: 3]`,
    );
    expect(await readFile.execute({ path: "k.txt" }, ctx)).toBe("     1|한국어");
    expect(existsSync(path.join("/nonexistent-local-dir", "sub"))).toBe(false);
  });

  it("kills a timed-out command with its children", async () => {
    const ctx = makeTestContext({ cwd: "/", workspace: ws });
    const out = text(await terminal.execute({ command: "sleep 31 & sleep 31; echo never", timeout: 1 }, ctx));
    expect(out).toContain("[timed out after 1 s");
    expect(out).not.toContain("never");
    // The group got SIGTERM: the background sleep goes too (counted until it is gone, 5 s at most).
    const count = "n=$(pgrep -a -x sleep | grep -c 'sleep 31$')";
    const left = text(
      await terminal.execute(
        { command: `for i in $(seq 50); do ${count}; [ "$n" = 0 ] && break; sleep 0.1; done; echo $n` },
        ctx,
      ),
    );
    expect(left.split("\n")[0]).toBe("0");
  });

  it("connects again after the connection dropped, keeping the task's directory", async () => {
    const ctx = makeTestContext({ cwd: "/", workspace: ws, taskId: "ssh-drop" });
    await terminal.execute({ command: `cd ${remoteDir} && mkdir -p kept && cd kept` }, ctx);
    const before = ws.connection.connects;
    sshd.dropConnections();
    // The first call after the drop either finds the link gone or loses it; one more succeeds.
    let out = "";
    for (let i = 0; i < 3 && !out.includes("[exit code: 0]"); i++) {
      out = await terminal.execute({ command: "pwd" }, ctx).then(text, (e: Error) => e.message);
    }
    expect(out).toBe(`${remoteDir}/kept\n[exit code: 0]`);
    expect(ws.connection.connects).toBeGreaterThan(before);
  });

  it("refuses a host key that is not the one in known_hosts", async () => {
    const wrong = sshWorkspace(settings({ knownHosts: sshd.wrongKnownHosts }));
    const err = await wrong.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkspaceUnavailable);
    expect((err as Error).message).toMatch(/host key of 127\.0\.0\.1:\d+ does not match/);
    const ctx = makeTestContext({ cwd: "/", workspace: wrong });
    await expect(terminal.execute({ command: "touch /tmp/should-not-run" }, ctx)).rejects.toThrow(
      /ssh workspace .* is unavailable/,
    );
    await wrong.close();
  });

  it("says the backend is down, naming host and port, when nothing listens", async () => {
    const down = sshWorkspace(settings({ port: 1 }));
    await expect(down.connect()).rejects.toThrow(
      `the ssh workspace (${sshd.user}@127.0.0.1:1) is unavailable`,
    );
    await down.close();
  });
});

function readFileSyncSafe(file: string): boolean {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
}
