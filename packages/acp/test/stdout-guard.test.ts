// claimStdout: after it, console.log and stray process.stdout.write calls land on stderr, and
// only what the protocol writes reaches the real stdout. Run in a child process so the test
// owns that process's stdout.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

it("sends every other stdout writer to stderr", () => {
  const script = `
    import { claimStdout } from ${JSON.stringify(join(here, "..", "src", "stdout-guard.ts"))};
    const protocol = claimStdout();
    console.log("console noise");
    process.stdout.write("raw noise\\n");
    console.info("info noise");
    protocol.write('{"jsonrpc":"2.0","method":"x"}\\n');
  `;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
    cwd: join(here, "..", "..", ".."),
  });
  expect(r.status).toBe(0);
  expect(r.stdout).toBe('{"jsonrpc":"2.0","method":"x"}\n');
  expect(r.stderr).toContain("console noise");
  expect(r.stderr).toContain("raw noise");
  expect(r.stderr).toContain("info noise");
});
