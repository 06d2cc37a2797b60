// ACP `session/new` with a bad working folder, through the SDK's own client: a relative, missing
// or non-folder cwd is an invalid_params error naming it, and no session is made for it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { storeOf } from "@iris/host/testing";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editor } from "./harness.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-cwd");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { code?: number; message?: string; data?: unknown }) => ({
      code: e.code,
      text: `${e.message} ${JSON.stringify(e.data)}`,
    }),
  );

describe("ACP session/new: the cwd", () => {
  it("refuses a relative, missing or non-folder cwd with invalid_params", async () => {
    const e = editor(fake, dir);
    const file = join(dir.path, "a-file");
    writeFileSync(file, "x");
    await e.run(async (ctx) => {
      const newSession = (cwd: string) => ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      const relative = await refusal(newSession("work"));
      expect(relative?.code).toBe(-32602);
      expect(relative?.text).toContain('cwd: "work" is not an absolute path');
      const missing = await refusal(newSession(join(dir.path, "no-such-folder")));
      expect(missing?.code).toBe(-32602);
      expect(missing?.text).toContain("does not exist");
      const notDir = await refusal(newSession(file));
      expect(notDir?.code).toBe(-32602);
      expect(notDir?.text).toContain("is not a folder");
      expect(await storeOf(await e.iris).listSessions({ limit: 10 })).toEqual([]);
      // A real folder still works.
      const ok = await newSession(e.work);
      expect(ok.sessionId).toBeTruthy();
    });
  });
});
