import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkGateway, parsePidFile } from "./gateway.js";
import { systemProbe } from "./types.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "iris-doctor-gw-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A real process that stays until killed, and its exit. */
function startIdle() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = () => {
    child.kill("SIGKILL");
    return exited;
  };
  return { pid: child.pid!, stop };
}

describe("parsePidFile", () => {
  it("reads a bare number or JSON with a pid, and nothing else", () => {
    expect(parsePidFile("1234\n")).toBe(1234);
    expect(parsePidFile('{"pid": 99, "started": 1}')).toBe(99);
    expect(parsePidFile("abc")).toBeUndefined();
    expect(parsePidFile("-3")).toBeUndefined();
  });
});

describe("checkGateway", () => {
  const pidPath = () => join(root, "gateway.pid");

  it("is fine with no pid file", () => {
    expect(checkGateway(systemProbe(), pidPath()).status).toBe("ok");
  });

  it("fails while the gateway in the pid file is alive, and warns of a stale file once it is gone", async () => {
    const gw = startIdle();
    try {
      writeFileSync(pidPath(), `${gw.pid}\n`);
      const live = checkGateway(systemProbe(), pidPath());
      expect(live.status).toBe("fail");
      expect(live.fix).toContain(`kill ${gw.pid}`);
    } finally {
      await gw.stop();
    }
    const stale = checkGateway(systemProbe(), pidPath());
    expect(stale).toMatchObject({ status: "warn", fix: `rm ${pidPath()}` });
  });

  it("does not flag the process that runs the check", () => {
    writeFileSync(pidPath(), String(process.pid));
    expect(checkGateway(systemProbe(), pidPath()).status).toBe("ok");
  });
});
