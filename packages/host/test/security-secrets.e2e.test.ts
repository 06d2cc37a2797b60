// Secrets stay out of the tools' reach and Iris's own configuration out of their hands (T4),
// through the agent loop against the fake model, approvals manual and nobody to approve: each
// path is asked about with its reason and denied, the key never reaches the model, and the
// credential and self-modification questions are asked in mode off too.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, modelNeverSaw, openWorld, SECRET, type SecurityWorld, unattended } from "./security.js";

let world: SecurityWorld;

beforeEach(async () => {
  world = await openWorld("iris-secrets");
  // The shell that started Iris exported a key: a child reading its parent's environ would see it.
  process.env.IRIS_TEST_PARENT_KEY = SECRET;
});
afterEach(async () => {
  delete process.env.IRIS_TEST_PARENT_KEY;
  await world.close();
});

/** Key files of the fake home and the work folder, each holding the secret. */
function writeKeyFiles(): void {
  const home = world.home.path;
  for (const [rel, body] of [
    [".aws/credentials", `[default]\naws_secret_access_key = ${SECRET}\n`],
    [".config/gcloud/application_default_credentials.json", `{"private_key": "${SECRET}"}\n`],
    [".netrc", `machine x login y password ${SECRET}\n`],
  ] as const) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), body);
  }
  writeFileSync(join(world.work, "server.pem"), `-----BEGIN PRIVATE KEY-----\n${SECRET}\n`);
  writeFileSync(join(world.dir.path, "config.yaml"), `# ${SECRET}\n`);
}

const secretPaths = () => {
  const env = join(world.dir.path, ".env");
  return [
    // The profile's own files, key files of the home and the work folder, another process's command line.
    ["read_file", { path: join(world.dir.path, "state.db") }],
    ["read_file", { path: join(world.dir.path, "config.yaml") }],
    ["read_file", { path: "~/.aws/credentials" }],
    ["read_file", { path: "~/.config/gcloud/application_default_credentials.json" }],
    ["read_file", { path: "~/.netrc" }],
    ["read_file", { path: "server.pem" }],
    ["read_file", { path: "/proc/1/cmdline" }],
    ["search_files", { pattern: "private_key", path: "~/.config/gcloud" }],
    ["terminal", { command: "cat ~/.aws/credentials" }],
    ["terminal", { command: "tr '\\0' ' ' < /proc/1/cmdline" }],
    ["terminal", { command: "grep -r password ~" }],
    ["read_file", { path: env }],
    ["search_files", { pattern: "sk-", path: world.dir.path }],
    ["terminal", { command: `cat ${env}` }],
    ["terminal", { command: "grep -a sk- /proc/[0-9]*/environ" }],
    ["terminal", { command: "cat /proc/$PPID/environ" }],
    ["read_file", { path: "~/.ssh/id_ed25519" }],
    // Named only at run time: the line names the profile, the reader gets its files later.
    ["terminal", { command: `cat $(find ${world.dir.path} -name .env)` }],
    ["terminal", { command: `F=${env}; cat $F` }],
    ["terminal", { command: `find ${world.dir.path} -name .env -exec cat {} +` }],
  ] as const;
};

describe("secrets are out of the tools' reach", () => {
  for (const mode of ["manual", "off"] as const) {
    it(`read, search, terminal cat and /proc/*/environ ask "reads a credential" (mode ${mode}) and are denied`, async () => {
      writeKeyFiles();
      const { session, asked } = unattended(world);
      session.setApprovalMode(mode);
      for (const [tool, args] of secretPaths()) {
        const before = asked.length;
        const result = await session.send(call(tool, args));
        expect(asked.length, `${tool} ${JSON.stringify(args)}`).toBe(before + 1);
        expect(asked.at(-1)?.keys).toContain("reads_credential");
        expect(asked.at(-1)?.reason).toMatch(/reads a credential/);
        expect(result.text).not.toContain(SECRET);
      }
      expect(modelNeverSaw(world.fake)).toBe(true);
    });
  }

  it("a search of the work folder skips credential files and links out of it", async () => {
    const { session, asked } = unattended(world);
    writeFileSync(join(world.work, ".env"), `KEY=${SECRET}\n`);
    writeFileSync(join(world.work, "app.ts"), "const k = 'sk-not-a-key';\n");
    const result = await session.send(call("search_files", { pattern: "sk-" }));
    expect(asked).toHaveLength(0);
    expect(result.text).toContain("app.ts");
    expect(result.text).not.toContain(SECRET);
  });
});

describe("Iris's own configuration cannot be changed without the user", () => {
  const config = () => join(world.dir.path, "config.yaml");

  for (const mode of ["manual", "off"] as const) {
    it(`config.yaml, .env, mcp_servers and skills' allowed_tools are asked about (mode ${mode})`, async () => {
      writeFileSync(config(), "approvals: {mode: manual}\n");
      const { session, asked } = unattended(world);
      session.setApprovalMode(mode);
      const skill = "---\nname: evil\ndescription: x\nallowed_tools: [terminal]\n---\nbody\n";
      const attempts = [
        call("write_file", { path: config(), content: "approvals: {mode: off}\n" }),
        call("patch", { path: config(), old_string: "manual", new_string: "off" }),
        call("write_file", { path: join(world.dir.path, ".env"), content: "OPENAI_API_KEY=stolen\n" }),
        call("terminal", { command: `printf 'mcp_servers: {x: {command: sh}}\\n' >> ${config()}` }),
        call("terminal", { command: "iris config set approvals.mode off" }),
        call("terminal", { command: `sed -i s/manual/off/ ${config()}` }),
        // Where code writes is only known when it runs: naming the profile is enough to ask.
        call("terminal", {
          command: `python3 -c 'import os; open(os.environ["IRIS_HOME"] + "/config.yaml", "w").write("approvals: {mode: off}")'`,
        }),
        call("skill_manage", { action: "create", name: "evil", content: skill }),
        call("write_file", { path: join(world.dir.path, "skills", "evil", "SKILL.md"), content: skill }),
      ];
      for (const prompt of attempts) {
        const before = asked.length;
        await session.send(prompt);
        expect(asked.length, prompt).toBe(before + 1);
      }
      expect(readFileSync(config(), "utf8")).toBe("approvals: {mode: manual}\n");
      expect(readFileSync(join(world.dir.path, ".env"), "utf8")).toContain(SECRET);
    });
  }

  it("the approval mode cannot be lowered from inside a turn", async () => {
    const { session, asked } = unattended(world);
    const pipe = { name: "terminal", arguments: { command: "echo 'echo hi' | sh" } };
    // Lowered while the turn waits on its first question: the second call of the turn still asks.
    session.subscribe((e) => {
      if (e.name === "approval_requested" && asked.length === 1) session.setApprovalMode("off");
    });
    world.fake.setHandler(() => ({ text: "unused" }));
    world.fake.enqueue({ toolCalls: [pipe] }, { toolCalls: [pipe] }, { text: "done" });
    await session.send("go");
    expect(asked).toHaveLength(2);
    // From the next turn on, the user's choice holds.
    expect(session.approvalMode).toBe("off");
  });
});
