// execute_code on the local workspace under a real bubblewrap: a program's tool calls go through
// the real dispatcher and approval policy (ctx.callTool, as the agent's tool box gives it), many
// of them in one run; the deadline, the output cap and the call limit each stop it with their own
// message; the sandbox has no network and cannot write outside the work folder.
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { skipWithoutBwrap } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../src/approval/policy.js";
import executeCode from "../src/builtin/execute_code.js";
import type { ToolContext } from "../src/define.js";
import { dispatchToolCall } from "../src/dispatch/dispatch.js";
import { type CodeSettings, toolEnvironment } from "../src/environment.js";
import { makeTestContext } from "../src/fs/test-context.js";
import { loadBuiltinTools } from "../src/registry/load-builtin.js";
import { ToolRegistry } from "../src/registry/registry.js";

const text = (r: unknown) => (typeof r === "string" ? r : (r as { content: string }).content);

describe.skipIf(skipWithoutBwrap())("execute_code under bubblewrap", () => {
  let root: string;
  let registry: ToolRegistry;
  const asked: string[] = [];
  const context = (code: Partial<CodeSettings> = {}): ToolContext => {
    const environment = toolEnvironment({ code });
    const ctx = makeTestContext({ cwd: root });
    const policy = createApprovalPolicy({ mode: "manual", timeoutMs: 5000 });
    ctx.environment = environment;
    ctx.approve = async (request) => {
      asked.push(request.command);
      return "deny";
    };
    ctx.callTool = (name, argumentsJson) => dispatchToolCall(registry, { name, argumentsJson }, ctx, policy);
    return ctx;
  };
  const run = async (
    args: { language: "python" | "javascript"; code: string; timeout?: number },
    ctx = context(),
  ) => executeCode.execute(args, ctx);

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-code-")));
    registry = new ToolRegistry({ environment: toolEnvironment(), logger: { warn: () => {} } });
    await loadBuiltinTools(registry);
    writeFileSync(path.join(root, "data.txt"), "alpha\nbeta\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("a Python program calls read_file and terminal 20 times each in one run", async () => {
    const r = await run({
      language: "python",
      code: [
        "total = 0",
        "for i in range(20):",
        "    text = iris.read_file(path='data.txt')",
        "    out = iris.terminal(command=f'echo run-{i} > out-{i}.txt && cat out-{i}.txt')",
        "    total += text.count('beta') + out.count(f'run-{i}')",
        "print('total', total)",
      ].join("\n"),
    });
    expect(text(r)).toContain("total 40\n");
    expect(text(r)).toContain("[exit code: 0; 40 tool call(s)]");
    expect(existsSync(path.join(root, "out-19.txt"))).toBe(true);
  }, 60_000);

  it("a JavaScript program awaits its tool calls", async () => {
    const r = await run({
      language: "javascript",
      code: "const t = await iris.read_file({ path: 'data.txt' });\nconsole.log(t.split('\\n').length, JSON.stringify(t.slice(0, 12)));",
    });
    expect(text(r)).toContain('2 "     1|alpha"');
  }, 30_000);

  it("inner calls are approved like direct ones: a dangerous command is asked about and not run", async () => {
    asked.length = 0;
    const r = await run({
      language: "python",
      code: `print(iris.terminal(command='rm -rf ~/.ssh-iris-test-never'))`,
    });
    expect(asked).toEqual(["rm -rf ~/.ssh-iris-test-never"]);
    expect(text(r)).toMatch(/not run: /);
  }, 30_000);

  it("while(true) is stopped at the deadline with a message", async () => {
    const r = await run({ language: "javascript", code: "while (true) {}", timeout: 1 });
    expect(r).toMatchObject({ isError: true });
    expect(text(r)).toContain("[stopped: the program ran past its 1-second limit]");
  }, 30_000);

  it("the output cap and the tool-call limit each say so", async () => {
    const capped = await run(
      { language: "python", code: "print('x' * 5000)" },
      context({ maxOutputBytes: 1000 }),
    );
    expect(text(capped)).toContain("[output cut: more than 1000 bytes");
    const limited = await run(
      {
        language: "python",
        code: "for i in range(5):\n    try:\n        iris.read_file(path='data.txt')\n    except IrisToolError as e:\n        print('refused:', e)",
      },
      context({ maxToolCalls: 3 }),
    );
    expect(text(limited)).toContain("refused: the limit of 3 tool calls per execute_code run was reached");
    expect(text(limited)).toContain("[tool calls refused after the limit of 3]");
    const notAllowed = await run({
      language: "python",
      code: "iris.execute_code(language='python', code='1')",
    });
    expect(text(notAllowed)).toMatch(/tool 'execute_code' cannot be called from execute_code/);
  }, 60_000);

  it("the sandbox has no network and writes only in the work folder", async () => {
    let connected = false;
    const server = createServer((s) => {
      connected = true;
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const port = (server.address() as { port: number }).port;
    const outside = path.join(tmpdir(), `iris-code-outside-${process.pid}.txt`);
    const r = await run({
      language: "python",
      code: [
        "import socket, os",
        "try:",
        `    socket.create_connection(('127.0.0.1', ${port}), timeout=2)`,
        "    print('net: connected')",
        "except OSError as e:",
        "    print('net: refused')",
        "for p in ['inside.txt', " + JSON.stringify(outside) + ", '/usr/iris-x']:",
        "    try:",
        "        open(p, 'w').write('x')",
        "        print('wrote', p)",
        "    except OSError:",
        "        print('could not write', p)",
        "print('etc', os.path.exists('/etc/passwd'))",
      ].join("\n"),
    });
    server.close();
    expect(text(r)).toContain("net: refused");
    expect(connected).toBe(false);
    expect(text(r)).toContain("wrote inside.txt");
    expect(existsSync(path.join(root, "inside.txt"))).toBe(true);
    // /tmp in the sandbox is its own: a write there never reaches this machine's /tmp.
    expect(existsSync(outside)).toBe(false);
    expect(text(r)).toContain("could not write /usr/iris-x");
    expect(text(r)).toContain("etc False");
  }, 30_000);
});
