// `iris acp --help` and `iris serve --help` name the options of iris they take too (--profile and
// the route flags): commander lists only a command's own options, so a new user never learnt
// that `iris serve --profile work` works.
import { describe, expect, it } from "vitest";
import { runIris } from "./helpers.js";

describe("front-end commands' help", () => {
  for (const command of ["acp", "serve"])
    it(`iris ${command} --help lists --profile and the route flags`, async () => {
      const r = await runIris([command, "--help"]);
      expect(r.code).toBe(0);
      for (const flag of ["--profile <name>", "--provider <id>", "--model <name>", "--base-url <url>"])
        expect(r.stdout).toContain(flag);
    });
});
