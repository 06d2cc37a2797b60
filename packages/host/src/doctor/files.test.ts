import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkConfigFile, checkDotenv, checkHomeFolder } from "./files.js";
import { type Probe, systemProbe } from "./types.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "iris-doctor-files-"));
  chmodSync(root, 0o700);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The real probe, except that `denied` paths refuse the given access, as for another user's file. */
function probeDenying(denied: string, mode: number): Probe {
  return {
    ...systemProbe(),
    access: (path, m) => {
      if (path === denied && (m & mode) !== 0) {
        const err = new Error(`EACCES: permission denied, access '${path}'`) as NodeJS.ErrnoException;
        err.code = "EACCES";
        throw err;
      }
      accessSync(path, m);
    },
  };
}

describe("the profile folder", () => {
  it("passes at 0700 and fails when other users can enter it, naming the chmod", () => {
    expect(checkHomeFolder(systemProbe(), root).status).toBe("ok");
    chmodSync(root, 0o755);
    const f = checkHomeFolder(systemProbe(), root);
    expect(f.status).toBe("fail");
    expect(f.message).toContain("755");
    expect(f.fix).toBe(`chmod 700 ${root}`);
  });

  it("fails when it is missing, with the mkdir that creates it", () => {
    const missing = join(root, "nope");
    const f = checkHomeFolder(systemProbe(), missing);
    expect(f).toMatchObject({ status: "fail", fix: `mkdir -m 700 -p ${missing}` });
  });
});

describe("the .env", () => {
  it("is fine when absent, and when private, readable and writable", () => {
    const env = join(root, ".env");
    expect(checkDotenv(systemProbe(), env)).toMatchObject([{ status: "ok" }]);
    writeFileSync(env, "OPENAI_API_KEY=sk-test-1234567890\n", { mode: 0o600 });
    chmodSync(env, 0o600);
    expect(checkDotenv(systemProbe(), env)).toMatchObject([{ status: "ok" }]);
  });

  it("fails when group or others can read it, naming chmod 600", () => {
    const env = join(root, ".env");
    writeFileSync(env, "OPENAI_API_KEY=sk-test-1234567890\n");
    chmodSync(env, 0o644);
    const [f] = checkDotenv(systemProbe(), env);
    expect(f).toMatchObject({ status: "fail", fix: `chmod 600 ${env}` });
    expect(f!.message).toContain("644");
  });

  it("fails when it cannot be read, with the chown and chmod that fix it", () => {
    const env = join(root, ".env");
    writeFileSync(env, "K=v\n", { mode: 0o600 });
    chmodSync(env, 0o600);
    const probe = probeDenying(env, constants.R_OK);
    const [f] = checkDotenv(probe, env);
    expect(f!.status).toBe("fail");
    expect(f!.message).toMatch(/cannot be read by you/);
    expect(f!.fix).toBe(`chown ${probe.uid} ${env} && chmod 600 ${env}`);
  });

  it("fails when it cannot be written: a refresh after a 401 could not store the new key", () => {
    const env = join(root, ".env");
    writeFileSync(env, "K=v\n", { mode: 0o600 });
    chmodSync(env, 0o600);
    const [f] = checkDotenv(probeDenying(env, constants.W_OK), env);
    expect(f!.status).toBe("fail");
    expect(f!.message).toMatch(/cannot be written by you: a credential refresh/);
  });

  it("fails when the path is a folder (unreadable as a file even for root)", () => {
    const env = join(root, ".env");
    mkdirSync(env);
    const [f] = checkDotenv(systemProbe(), env);
    expect(f!.status).toBe("fail");
    expect(f!.message).toContain("is not a file");
  });
});

describe("config.yaml", () => {
  it("fails when anyone can change it, and when it holds a key others can read", () => {
    const cfg = join(root, "config.yaml");
    writeFileSync(cfg, "model: {provider: openai}\n");
    chmodSync(cfg, 0o666);
    expect(checkConfigFile(systemProbe(), cfg, false)).toMatchObject({
      status: "fail",
      fix: `chmod 600 ${cfg}`,
    });
    chmodSync(cfg, 0o644);
    expect(checkConfigFile(systemProbe(), cfg, false).status).toBe("ok");
    expect(checkConfigFile(systemProbe(), cfg, true).status).toBe("fail");
    chmodSync(cfg, 0o600);
    expect(checkConfigFile(systemProbe(), cfg, true).status).toBe("ok");
  });
});
