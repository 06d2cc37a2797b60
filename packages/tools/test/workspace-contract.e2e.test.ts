// One contract for every workspace: the same tool calls (terminal with cd, background processes,
// read, write, patch, search) with the same expectations on the local workspace, on the ssh
// workspace against a real sshd (testkit/sshd.ts) and on the docker workspace against a real
// podman (testkit/podman.ts), run by root and rootless (an unprivileged user's engine). A backend
// that passes this is usable by the agent.
import { chownSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type Podman,
  type Sshd,
  skipWithoutPodman,
  skipWithoutRootlessPodman,
  skipWithoutSshd,
  startPodman,
  startSshd,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import patch from "../src/builtin/patch.js";
import processTool from "../src/builtin/process.js";
import readFile from "../src/builtin/read_file.js";
import searchFiles from "../src/builtin/search_files.js";
import terminal from "../src/builtin/terminal.js";
import writeFile from "../src/builtin/write_file.js";
import type { ToolContext } from "../src/define.js";
import { makeTestContext } from "../src/fs/test-context.js";
import { dockerWorkspace } from "../src/workspace/docker.js";
import { localWorkspace } from "../src/workspace/local.js";
import { sshWorkspace } from "../src/workspace/ssh.js";
import type { Workspace } from "../src/workspace/types.js";

const text = (r: unknown) => (typeof r === "string" ? r : (r as { content: string }).content);

interface Backend {
  ws: Workspace;
  /** The work folder on the workspace's side. */
  root: string;
  /** The session's cwd as the host knows it. */
  cwd: string;
  close(): Promise<void>;
}

const backends: [string, () => Promise<Backend>, boolean][] = [
  [
    "local",
    async () => {
      const root = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-contract-")));
      return {
        ws: localWorkspace({ root }),
        root,
        cwd: root,
        close: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
    false,
  ],
  [
    "ssh",
    async () => {
      const sshd: Sshd = await startSshd();
      const root = path.posix.join(sshd.home, `contract-${process.pid}-${Date.now()}`);
      const ws = sshWorkspace({
        host: sshd.host,
        port: sshd.port,
        user: sshd.user,
        keyPath: sshd.keyPath,
        knownHosts: sshd.knownHosts,
        remoteDir: root,
      });
      await ws.exec({ command: `mkdir -p ${root}`, cwd: "/", timeoutMs: 10_000 });
      return {
        ws,
        root,
        cwd: "/path/that/exists/only/on/this/host",
        close: async () => {
          await ws.exec({ command: `rm -rf ${root}`, cwd: "/", timeoutMs: 10_000 }).catch(() => undefined);
          await ws.close();
          await sshd.close();
        },
      };
    },
    skipWithoutSshd(),
  ],
  ["docker", async () => dockerBackend(await startPodman()), skipWithoutPodman()],
  [
    "docker on rootless podman",
    async () => dockerBackend(await startPodman({ rootless: true })),
    skipWithoutRootlessPodman(),
  ],
];

async function dockerBackend(engine: Podman): Promise<Backend> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-contract-docker-")));
  // The engine's user owns the work folder (a rootless container's root is that user here).
  chownSync(root, engine.uid, engine.gid);
  const ws = dockerWorkspace({
    socket: engine.socket,
    image: engine.image,
    profile: "contract",
    scope: "session",
    sessionId: `contract-${process.pid}`,
    hostRoot: root,
  });
  await ws.connect();
  return {
    ws,
    root,
    cwd: root,
    close: async () => {
      await ws.close();
      await engine.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

for (const [name, make, skip] of backends) {
  describe.skipIf(skip)(`workspace contract: ${name}`, () => {
    let b: Backend;
    let ctx: ToolContext;
    const run = async (command: string, c: ToolContext = ctx) => text(await terminal.execute({ command }, c));

    beforeAll(async () => {
      b = await make();
      ctx = makeTestContext({ cwd: b.cwd, workspace: b.ws, taskId: `contract-${name}` });
    }, 60_000);
    afterAll(async () => {
      await b?.ws.processes.closeAll();
      await b?.close();
    });

    it("terminal: output of both streams, exit codes, and cd kept per task", async () => {
      expect(await run("pwd")).toBe(`${b.root}\n[exit code: 0]`);
      const both = await run("echo out; echo err >&2; exit 7");
      expect(both).toContain("out\n");
      expect(both).toContain("err\n");
      expect(both).toMatch(/\[exit code: 7\]$/);
      expect(await run("mkdir -p a/b && cd a/b")).toContain(`[working directory is now ${b.root}/a/b]`);
      expect(await run("pwd")).toBe(`${b.root}/a/b\n[exit code: 0]`);
      const other = makeTestContext({ cwd: b.cwd, workspace: b.ws, taskId: `contract-${name}-other` });
      expect(await run("pwd", other)).toBe(`${b.root}\n[exit code: 0]`);
      await run(`cd ${b.root}`);
    });

    it("write_file, read_file and patch; the terminal sees the same file", async () => {
      expect(text(await writeFile.execute({ path: "notes/x.txt", content: "one\ntwo\n" }, ctx))).toBe(
        `Wrote 8 bytes to ${b.root}/notes/x.txt.`,
      );
      expect(await readFile.execute({ path: "notes/x.txt" }, ctx)).toBe("     1|one\n     2|two");
      expect(
        text(await patch.execute({ path: "notes/x.txt", old_string: "two", new_string: "zwei" }, ctx)),
      ).toContain("Replaced 1 occurrence");
      expect(await run("cat notes/x.txt")).toBe("one\nzwei\n[exit code: 0]");
      expect(await readFile.execute({ path: "missing.txt" }, ctx)).toMatchObject({ isError: true });
      expect(await readFile.execute({ path: "notes" }, ctx)).toMatchObject({ isError: true });
    });

    it("search_files by content and by name, .gitignore respected", async () => {
      await writeFile.execute({ path: ".gitignore", content: "ignored/\n" }, ctx);
      await writeFile.execute({ path: "ignored/y.txt", content: "zwei\n" }, ctx);
      expect(text(await searchFiles.execute({ pattern: "zw.i" }, ctx))).toBe("notes/x.txt:2: zwei");
      expect(text(await searchFiles.execute({ pattern: "*.txt", mode: "files" }, ctx))).toBe("notes/x.txt");
    });

    it("background processes: start, poll, list, wait for the exit code, kill", async () => {
      const started = text(
        await terminal.execute({ command: "echo ready; sleep 30", background: true }, ctx),
      );
      const id = /Started (proc_\d+)/.exec(started)?.[1] as string;
      expect(id).toBeDefined();
      let polled = "";
      for (let i = 0; i < 100 && !polled.includes("ready"); i++) {
        polled += text(await processTool.execute({ action: "poll", id }, ctx));
        if (!polled.includes("ready")) await new Promise((r) => setTimeout(r, 50));
      }
      expect(polled).toContain("ready");
      expect(text(await processTool.execute({ action: "list" }, ctx))).toMatch(new RegExp(`${id} running`));
      expect(text(await processTool.execute({ action: "kill", id }, ctx))).toMatch(/\(killed on request\)/);

      const quick = text(await terminal.execute({ command: "echo done; exit 4", background: true }, ctx));
      const qid = /Started (proc_\d+)/.exec(quick)?.[1] as string;
      const waited = text(await processTool.execute({ action: "wait", id: qid, timeout: 20 }, ctx));
      expect(waited).toMatch(new RegExp(`${qid} exited with code 4`));
      expect(waited).toContain("done");
    });
  });
}
