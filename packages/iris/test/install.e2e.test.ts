// The README's install step on a fresh clone: a clone has no node_modules and no dist, so the
// step is `npm ci` (install + build through `prepare`) and `npm install -g ./packages/iris`, and
// then `iris --version` works from a folder unrelated to the checkout. The clone's dependencies
// are the checkout's own (linked: tests never reach the registry), the rest runs as written.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
let temp: string | undefined;
afterEach(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = undefined;
});

describe("installing from a fresh clone", () => {
  it("puts `iris` on the PATH with the README's commands; it runs from an unrelated folder", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    expect(readme).toContain("npm ci ");
    expect(readme).toContain("npm install -g ./packages/iris");
    expect(readme).not.toMatch(/^npx iris /m);
    temp = mkdtempSync(join(tmpdir(), "iris-install-"));
    const clone = join(temp, "clone");
    execFileSync("git", ["clone", "--quiet", "--no-hardlinks", REPO, clone], { stdio: "pipe" });
    expect(existsSync(join(clone, "packages", "iris", "dist"))).toBe(false);
    // What `npm ci` installs, without the network; then what its `prepare` runs.
    symlinkSync(join(REPO, "node_modules"), join(clone, "node_modules"));
    const env = { ...process.env, npm_config_audit: "false", npm_config_fund: "false" };
    execFileSync("npm", ["run", "build"], { cwd: clone, env, stdio: "pipe", timeout: 400_000 });
    const prefix = join(temp, "prefix");
    execFileSync("npm", ["install", "-g", "--offline", "--prefix", prefix, "./packages/iris"], {
      cwd: clone,
      env,
      stdio: "pipe",
    });
    const elsewhere = join(temp, "elsewhere");
    mkdirSync(elsewhere);
    const version = execFileSync("iris", ["--version"], {
      cwd: elsewhere,
      env: {
        ...env,
        PATH: `${join(prefix, "bin")}:${process.env.PATH ?? ""}`,
        IRIS_HOME: join(temp, "home"),
      },
      encoding: "utf8",
    });
    expect(version.trim()).toBe(
      JSON.parse(readFileSync(join(clone, "packages", "iris", "package.json"), "utf8")).version,
    );
  }, 420_000);
});
