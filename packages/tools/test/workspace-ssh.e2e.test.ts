// The ssh workspace against a real sshd on a loopback port (testkit/sshd.ts): commands run on the
// remote side as its user, files go over SFTP, a dropped connection is opened again with the
// task's directory kept (a command that never started is sent again, one that ran never twice),
// and a host key that is not the one in known_hosts, or not there at all, is refused.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { type Sshd, skipWithoutSshd, startSshd } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import readFile from "../src/builtin/read_file.js";
import terminal from "../src/builtin/terminal.js";
import { makeTestContext } from "../src/fs/test-context.js";
import { WorkspaceUnavailable } from "../src/workspace/errors.js";
import { type SshWorkspace, sshWorkspace } from "../src/workspace/ssh.js";
import { StallProxy } from "./stall-proxy.js";

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

  it("runs the command on the remote side as its user, in remote_dir; its marker file lands in the remote home", async () => {
    const ctx = makeTestContext({ cwd: "/nonexistent-local-dir", workspace: ws });
    const marker = `iris-marker-${process.pid}-${Date.now()}`;
    const out = text(await terminal.execute({ command: `whoami; pwd; touch ~/${marker}; echo ok` }, ctx));
    expect(out).toBe(`${sshd.user}\n${remoteDir}\nok\n[exit code: 0]`);
    expect(ws.home).toBe(sshd.home);
    // The sshd is on loopback, so the remote user's home is a folder here: the marker is in it,
    // and (run as root, the remote user is another one) not in the test's own home.
    expect(existsSync(path.join(sshd.home, marker))).toBe(true);
    if (sshd.home !== homedir()) expect(existsSync(path.join(homedir(), marker))).toBe(false);
    await terminal.execute({ command: `rm ~/${marker}` }, ctx);
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
    // The command never started on the dropped connection: it runs on the new one, in the kept cwd.
    expect(text(await terminal.execute({ command: "pwd" }, ctx))).toBe(`${remoteDir}/kept\n[exit code: 0]`);
    expect(ws.connection.connects).toBeGreaterThan(before);
  });

  it("a command that was running when the connection dropped is said lost, not run again", async () => {
    const count = path.posix.join(remoteDir, "ran-once.txt");
    let up: () => void = () => {};
    const isUp = new Promise<void>((resolve) => {
      up = resolve;
    });
    const call = ws.exec({
      command: `echo run >> ${count}; echo up; sleep 30`,
      cwd: remoteDir,
      timeoutMs: 60_000,
      onData: (d) => d.includes("up") && up(),
    });
    await isUp;
    sshd.dropConnections();
    await expect(call).rejects.toThrow(/the connection was lost while the command ran/);
    expect((await ws.exec({ command: `cat ${count}`, cwd: "/", timeoutMs: 10_000 })).output).toBe("run\n");
  });

  it("a command's claims do not pile up: each is removed once its end has come back", async () => {
    const claims = async () =>
      (await ws.exec({ command: `ls ${ws.processes.dir} | grep -c '^run-'`, cwd: "/", timeoutMs: 10_000 }))
        .output;
    // While one runs: its own claim and the one before it (removed when this one ends), besides
    // those of commands lost to a dropped connection, which stay.
    const before = await claims();
    for (let i = 0; i < 4; i++) await ws.exec({ command: "true", cwd: "/", timeoutMs: 10_000 });
    expect(await claims()).toBe(before);
  });

  describe("a link that goes quiet (a proxy holds the command in flight)", () => {
    let proxy: StallProxy;
    let pws: SshWorkspace;
    beforeAll(async () => {
      proxy = await StallProxy.start(sshd.port);
      // The host key is the sshd's; known_hosts names the proxy's port.
      const known = path.join(sshd.dir, "proxy_known_hosts");
      const key = readFileSync(sshd.knownHosts, "utf8").trim().split(/\s+/).slice(1).join(" ");
      writeFileSync(known, `[127.0.0.1]:${proxy.port} ${key}\n`);
      pws = sshWorkspace(settings({ port: proxy.port, knownHosts: known }));
      await pws.connect();
    });
    afterAll(async () => {
      await pws?.close();
      await proxy?.close();
    });
    const until = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 10));
    };
    const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");

    it("a command the shell never got is sent again on a new connection and runs once", async () => {
      const count = path.posix.join(remoteDir, "never-got.txt");
      const link = proxy.last;
      link.stall();
      const call = pws.exec({ command: `echo run >> ${count}; echo ran`, cwd: remoteDir, timeoutMs: 20_000 });
      await until(() => link.held.length > 0);
      link.cut();
      expect((await call).output).toBe("ran\n");
      expect(lines(count)).toBe("run\n");
      // The first copy reaches the old shell late after all: it finds the claim and does not run.
      const answered = link.answered;
      link.deliver();
      await until(() => link.answered > answered);
      expect(lines(count)).toBe("run\n");
    });

    it("a command whose time ran out while its link was quiet is given up: a late copy does not run", async () => {
      const count = path.posix.join(remoteDir, "gave-up.txt");
      const link = proxy.last;
      link.stall();
      const started = Date.now();
      const call = pws.exec({ command: `echo run >> ${count}`, cwd: remoteDir, timeoutMs: 300 });
      await until(() => link.held.length > 0 && Date.now() - started > 300);
      link.cut();
      await expect(call).rejects.toThrow(/lost before the command started \(it will not run\)/);
      const answered = link.answered;
      link.deliver();
      await until(() => link.answered > answered);
      expect(lines(count)).toBe("");
    });

    it("a command whose first copy ran after all is not run by the retry: it is said lost", async () => {
      const count = path.posix.join(remoteDir, "ran-late.txt");
      const link = proxy.last;
      link.stall();
      const call = pws.exec({ command: `echo run >> ${count}`, cwd: remoteDir, timeoutMs: 20_000 });
      await until(() => link.held.length > 0);
      link.deliver();
      await until(() => lines(count) !== "");
      link.cut();
      await expect(call).rejects.toThrow(/it was not run again/);
      expect(lines(count)).toBe("run\n");
      expect((await pws.exec({ command: "echo fine", cwd: "/", timeoutMs: 10_000 })).output).toBe("fine\n");
    });
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

  it("refuses a host that known_hosts does not list (no trust on first use)", async () => {
    const known = path.join(sshd.dir, "other_hosts");
    const key = readFileSync(sshd.knownHosts, "utf8").trim().split(/\s+/).slice(1).join(" ");
    writeFileSync(known, `[127.0.0.1]:${sshd.port + 1} ${key}\nexample.org ${key}\n`);
    const unknown = sshWorkspace(settings({ knownHosts: known }));
    const err = await unknown.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkspaceUnavailable);
    expect((err as Error).message).toContain(
      `the host key of 127.0.0.1:${sshd.port} is not in ${known}; add it (ssh-keyscan) to trust this host`,
    );
    await unknown.close();
  });

  it("says the backend is down, naming host and port, when nothing listens", async () => {
    const down = sshWorkspace(settings({ port: 1 }));
    await expect(down.connect()).rejects.toThrow(
      `the ssh workspace (${sshd.user}@127.0.0.1:1) is unavailable`,
    );
    await down.close();
  });
});
