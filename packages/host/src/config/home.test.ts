import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureHome, ProfileNameError, resolveHome } from "./home.js";

const temps: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "iris-home-"));
  temps.push(d);
  return d;
}
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("resolveHome", () => {
  it("defaults to ~/.iris and puts every file of the profile under it", () => {
    const home = resolveHome({ env: { HOME: "/home/ann" } });
    expect(home.base).toBe("/home/ann/.iris");
    expect(home.root).toBe("/home/ann/.iris");
    expect(home.profile).toBe("default");
    expect(home.paths.db).toBe("/home/ann/.iris/state.db");
    expect(home.paths.config).toBe("/home/ann/.iris/config.yaml");
    expect(home.paths.env).toBe("/home/ann/.iris/.env");
    expect(home.paths.gatewayPid).toBe("/home/ann/.iris/gateway.pid");
    for (const p of Object.values(home.paths)) expect(p.startsWith("/home/ann/.iris/")).toBe(true);
  });

  it("IRIS_HOME overrides the home, with ~ expanded", () => {
    expect(resolveHome({ env: { HOME: "/h", IRIS_HOME: "/srv/iris" } }).root).toBe("/srv/iris");
    expect(resolveHome({ env: { HOME: "/h", IRIS_HOME: "~/alt" } }).root).toBe("/h/alt");
  });

  it("a named profile lives under profiles/NAME with its own files", () => {
    const a = resolveHome({ env: { HOME: "/h" }, profile: "work" });
    const b = resolveHome({ env: { HOME: "/h" }, profile: "bot-2" });
    expect(a.root).toBe("/h/.iris/profiles/work");
    expect(a.base).toBe("/h/.iris");
    expect(a.paths.db).toBe("/h/.iris/profiles/work/state.db");
    const shared = Object.values(a.paths).filter((p) => Object.values(b.paths).includes(p));
    expect(shared).toEqual([]);
    expect(resolveHome({ env: { HOME: "/h" }, profile: "default" }).root).toBe("/h/.iris");
  });

  it.each(["..", "../x", "a/b", ".hidden", "", "a b", "x".repeat(65), "a\\b"])(
    "rejects the profile name %j",
    (name) => {
      expect(() => resolveHome({ env: { HOME: "/h" }, profile: name })).toThrow(ProfileNameError);
    },
  );
});

describe("ensureHome", () => {
  it("creates missing folders with mode 0700 and leaves existing ones alone", () => {
    const base = join(tempDir(), "home");
    const home = resolveHome({ env: { IRIS_HOME: base }, profile: "p1" });
    ensureHome(home);
    expect(statSync(home.root).isDirectory()).toBe(true);
    expect(statSync(home.root).mode & 0o777).toBe(0o700);
    expect(statSync(base).mode & 0o777).toBe(0o700);
    ensureHome(home); // idempotent
  });

  it("resolveHome alone touches nothing on disk", () => {
    const base = join(tempDir(), "never");
    resolveHome({ env: { IRIS_HOME: base } });
    expect(() => statSync(base)).toThrow();
  });
});
