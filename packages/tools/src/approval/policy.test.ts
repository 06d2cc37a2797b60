import { describe, expect, it } from "vitest";
import type { ApprovalAnswer, ApprovalRequest, ToolContext } from "../define.js";
import { localWorkspace } from "../workspace/local.js";
import { ApprovalMemory } from "./memory.js";
import { createApprovalPolicy } from "./policy.js";
import type { ApprovalEvent, JudgeVerdict } from "./types.js";

const home = "/home/alice";
const terminal = { name: "terminal" };

/** A context whose approve() answers from a script and records what it was asked. */
function context(answers: (ApprovalAnswer | "never")[] = [], extra: Partial<ToolContext> = {}) {
  const asked: ApprovalRequest[] = [];
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    taskId: "t1",
    workspace: localWorkspace(),
    cwd: "/tmp",
    progress: () => {},
    approve: (request) => {
      asked.push(request);
      const answer = answers.shift() ?? "deny";
      return answer === "never" ? new Promise<ApprovalAnswer>(() => {}) : Promise.resolve(answer);
    },
    ...extra,
  };
  return { ctx, asked };
}

describe("createApprovalPolicy", () => {
  it("lets harmless commands through without asking", async () => {
    const policy = createApprovalPolicy({ mode: "manual", home });
    const { ctx, asked } = context();
    expect(await policy.check(terminal, "ls -la", ctx)).toEqual({ allowed: true });
    expect(asked).toHaveLength(0);
  });

  it("a skill's allowed_tools and 'always' never cover credentials or Iris's own configuration", async () => {
    const policy = createApprovalPolicy({
      mode: "manual",
      home,
      allowKeys: ["reads_credential", "self_modification", "recursive_delete"],
    });
    const memory = new ApprovalMemory();
    memory.preapproveTools("tidy", ["terminal"]);
    const { ctx, asked } = context([], { approvalMemory: memory, cwd: `${home}/proj` });
    // The skill's tool runs what it was made for, unasked…
    expect(await policy.check(terminal, "rm -r build", ctx)).toEqual({ allowed: true });
    expect(asked).toHaveLength(0);
    // …but a key file or the profile's configuration is still the user's to allow.
    for (const command of ["cat ~/.ssh/id_ed25519", "echo 'approvals: {mode: off}' > ~/.iris/config.yaml"]) {
      const d = await policy.check(terminal, command, ctx);
      expect(d.allowed, command).toBe(false);
    }
    expect(asked.map((r) => r.patternKeys)).toEqual([["reads_credential"], ["self_modification"]]);
  });

  it("off still blocks every hard-blocked command, without asking", async () => {
    const policy = createApprovalPolicy({
      mode: "off",
      home,
      nonInteractive: "allow",
      allowKeys: ["delete_system_root"],
    });
    const { ctx, asked } = context(["always", "always", "always", "always", "always", "always"]);
    for (const command of [
      "rm -rf /",
      "rm -rf ~",
      "mkfs.ext4 /dev/sda1",
      "dd if=x of=/dev/sda",
      ":(){ :|:& };:",
      "kill -9 -1",
      "reboot",
    ]) {
      const decision = await policy.check(terminal, command, ctx);
      expect(decision.allowed, command).toBe(false);
      if (!decision.allowed) expect(decision.reason).toMatch(/^blocked: /);
    }
    expect(asked).toHaveLength(0);
  });

  it("off runs dangerous commands without asking", async () => {
    const policy = createApprovalPolicy({ mode: "off", home });
    const { ctx, asked } = context();
    expect(await policy.check(terminal, "rm -rf node_modules", ctx)).toEqual({ allowed: true });
    expect(asked).toHaveLength(0);
  });

  it("manual: once approves one call only", async () => {
    const policy = createApprovalPolicy({ mode: "manual", home });
    const { ctx, asked } = context(["once", "deny"]);
    expect(await policy.check(terminal, "git push -f", ctx)).toEqual({ allowed: true });
    const second = await policy.check(terminal, "git push -f", ctx);
    expect(second.allowed).toBe(false);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({
      tool: "terminal",
      command: "git push -f",
      patternKey: "git_force_push",
    });
  });

  it("manual: session remembers the pattern key in the session's memory only", async () => {
    // One policy per process (as the CLI and the gateway build it), one memory per session.
    const policy = createApprovalPolicy({ mode: "manual", home });
    const sessionA = new ApprovalMemory();
    const { ctx, asked } = context(["session"], { approvalMemory: sessionA });
    expect((await policy.check(terminal, "rm -rf dist", ctx)).allowed).toBe(true);
    expect((await policy.check(terminal, "rm -r build", ctx)).allowed).toBe(true);
    expect(asked).toHaveLength(1);
    expect(sessionA.list()).toEqual(["recursive_delete"]);
    // A different pattern still asks.
    const other = await policy.check(terminal, "git reset --hard", ctx);
    expect(other.allowed).toBe(false);
    expect(asked).toHaveLength(2);
    // Another session (`/new`, another chat of a gateway) on the same policy asks again.
    const sessionB = context([], { approvalMemory: new ApprovalMemory() });
    expect((await policy.check(terminal, "rm -rf dist", sessionB.ctx)).allowed).toBe(false);
    expect(sessionB.asked).toHaveLength(1);
    // Without a memory, "session" approves this call only.
    const bare = context(["session"]);
    expect((await policy.check(terminal, "rm -rf dist", bare.ctx)).allowed).toBe(true);
    expect((await policy.check(terminal, "rm -rf dist", bare.ctx)).allowed).toBe(false);
  });

  it("tells the front end exactly what always allows", async () => {
    const policy = createApprovalPolicy({ mode: "manual", home });
    const { ctx, asked } = context(["deny"]);
    await policy.check(terminal, "rm -rf dist && git push -f", ctx);
    expect(asked[0]?.alwaysAllows).toEqual([
      "recursive_delete: deletes a folder and everything in it (rm -r)",
      expect.stringMatching(/^git_force_push: force-pushes/),
    ]);
  });

  it("manual: always persists the pattern key and pre-allowed keys are not asked", async () => {
    const saved: string[] = [];
    const policy = createApprovalPolicy({ mode: "manual", home, persistAlways: (k) => void saved.push(k) });
    const { ctx, asked } = context(["always"]);
    expect((await policy.check(terminal, "docker rm -f web", ctx)).allowed).toBe(true);
    // The specific pattern, and docker itself with arguments the allow-list does not prove harmless.
    expect(saved).toEqual(["docker_destroy", "unproven:docker"]);
    expect((await policy.check(terminal, "docker system prune", ctx)).allowed).toBe(true);
    expect(asked).toHaveLength(1);

    const next = createApprovalPolicy({ mode: "manual", home, allowKeys: saved });
    const fresh = context();
    expect((await next.check(terminal, "docker rm -f db", fresh.ctx)).allowed).toBe(true);
    expect(fresh.asked).toHaveLength(0);
  });

  it("manual: deny says why", async () => {
    const policy = createApprovalPolicy({ mode: "manual", home });
    const { ctx } = context(["deny"]);
    const decision = await policy.check(terminal, "git reset --hard", ctx);
    expect(decision).toEqual({ allowed: false, reason: expect.stringContaining("denied") });
  });

  it("denies when the user does not answer in time", async () => {
    const events: ApprovalEvent[] = [];
    const policy = createApprovalPolicy({
      mode: "manual",
      home,
      timeoutMs: 20,
      onEvent: (e) => events.push(e),
    });
    let withdrawn: AbortSignal | undefined;
    const { ctx } = context(["never"]);
    const ask = ctx.approve;
    ctx.approve = (request, signal) => {
      withdrawn = signal;
      return ask(request, signal);
    };
    const decision = await policy.check(terminal, "npm publish", ctx);
    expect(decision.allowed).toBe(false);
    // The question is withdrawn, so the front end stops waiting for an answer line.
    expect(withdrawn?.aborted).toBe(true);
    expect(withdrawn?.reason).toBe("timeout");
    expect(events.map((e) => e.type)).toEqual(["requested", "denied"]);
    expect(events[1]).toMatchObject({ by: "timeout" });
  });

  it("denies when approve() throws or the run is cancelled", async () => {
    const policy = createApprovalPolicy({ mode: "manual", home });
    const throwing = context([], { approve: () => Promise.reject(new Error("ui gone")) });
    expect((await policy.check(terminal, "npm publish", throwing.ctx)).allowed).toBe(false);
    const controller = new AbortController();
    const waiting = context(["never"], { signal: controller.signal });
    const pending = policy.check(terminal, "npm publish", waiting.ctx);
    controller.abort();
    expect((await pending).allowed).toBe(false);
  });

  it("non-interactive runs deny unless configured to allow", async () => {
    const { ctx, asked } = context(["once"], { interactive: false });
    const strict = createApprovalPolicy({ mode: "manual", home });
    const decision = await strict.check(terminal, "rm -rf cache", ctx);
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) expect(decision.reason).toContain("non-interactive");
    const lenient = createApprovalPolicy({ mode: "manual", home, nonInteractive: "allow" });
    expect((await lenient.check(terminal, "rm -rf cache", ctx)).allowed).toBe(true);
    expect((await lenient.check(terminal, "rm -rf /", ctx)).allowed).toBe(false);
    expect(asked).toHaveLength(0);
  });

  describe("smart mode", () => {
    const judgeWith =
      (verdict: JudgeVerdict | Error, seen: ApprovalRequest[] = []) =>
      async (r: ApprovalRequest) => {
        seen.push(r);
        if (verdict instanceof Error) throw verdict;
        return verdict;
      };

    it("approve runs without asking the user", async () => {
      const seen: ApprovalRequest[] = [];
      const policy = createApprovalPolicy({ mode: "smart", home, judge: judgeWith("approve", seen) });
      const { ctx, asked } = context();
      expect((await policy.check(terminal, "rm -rf node_modules/", ctx)).allowed).toBe(true);
      expect(seen[0]?.patternKey).toBe("recursive_delete");
      expect(asked).toHaveLength(0);
    });

    it("deny refuses without asking the user", async () => {
      const policy = createApprovalPolicy({ mode: "smart", home, judge: judgeWith("deny") });
      const { ctx, asked } = context(["once"]);
      expect((await policy.check(terminal, "git push --force", ctx)).allowed).toBe(false);
      expect(asked).toHaveLength(0);
    });

    it("escalate, an error or a timeout asks the user", async () => {
      for (const judge of [
        judgeWith("escalate"),
        judgeWith(new Error("model down")),
        () => new Promise<JudgeVerdict>(() => {}),
      ]) {
        const policy = createApprovalPolicy({ mode: "smart", home, judge, judgeTimeoutMs: 20 });
        const { ctx, asked } = context(["once"]);
        expect((await policy.check(terminal, "git push --force", ctx)).allowed).toBe(true);
        expect(asked).toHaveLength(1);
      }
    });

    it("never consults the judge for hard-blocked commands", async () => {
      const seen: ApprovalRequest[] = [];
      const policy = createApprovalPolicy({ mode: "smart", home, judge: judgeWith("approve", seen) });
      const { ctx } = context();
      expect((await policy.check(terminal, "sudo rm -rf /etc", ctx)).allowed).toBe(false);
      expect(seen).toHaveLength(0);
    });
  });
});
