// `execute_code` (programmatic tool calling): the model writes a short Python or JavaScript
// program that calls Iris's tools through `iris.<tool>(...)`, so one model call does many tool
// steps. It runs under bubblewrap on the local workspace (no network, only the work folder
// writable) and in the container on the docker workspace; time, output and tool calls are
// limited (code_execution: in config.yaml), and every inner call is dispatched and approved like
// a direct one.
import { z } from "zod";
import { runCode, unsupportedOn } from "../code/run-code.js";
import { defineTool } from "../define.js";
import { taskCwdOf } from "../terminal/scope.js";

const parameters = z.object({
  language: z
    .enum(["python", "javascript"])
    .describe("python (calls block) or javascript (calls return promises; top-level await works)."),
  code: z
    .string()
    .min(1)
    .describe(
      "The program. Call tools as iris.read_file(path='a.txt') in Python, await iris.read_file({path: 'a.txt'}) in JavaScript; print what you want back.",
    ),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe("Seconds before it is stopped (at most the configured limit)."),
});

export default defineTool({
  name: "execute_code",
  toolset: "code_execution",
  label: "Run code",
  effect: "mutate",
  description:
    "Run a short Python or JavaScript program that calls your tools (iris.<tool>(...), each returns the tool's text) " +
    "to do many steps in one go; only its printed output comes back. No network; only the work folder is writable.",
  parameters,
  available: (env) => env.code.tools.length > 0 || "code_execution.tools is empty",
  async execute(args, ctx) {
    const env = ctx.environment;
    const settings = env?.code;
    if (!settings || !ctx.callTool)
      return { content: "Error: execute_code cannot call tools here.", isError: true };
    const why = unsupportedOn(ctx.workspace);
    if (why) return { content: `Error: ${why}.`, isError: true };
    const limitS = Math.min(args.timeout ?? settings.timeoutSeconds, settings.timeoutSeconds);
    const r = await runCode({
      language: args.language,
      code: args.code,
      cwd: taskCwdOf(ctx),
      workspace: ctx.workspace,
      timeoutMs: limitS * 1000,
      maxOutputBytes: settings.maxOutputBytes,
      maxToolCalls: settings.maxToolCalls,
      allowedTools: new Set(settings.tools.filter((t) => t !== "execute_code")),
      signal: ctx.signal,
      callTool: ctx.callTool,
    });
    const notes: string[] = [];
    if (r.timedOut) notes.push(`[stopped: the program ran past its ${limitS}-second limit]`);
    if (r.aborted) notes.push("[stopped: the turn was interrupted]");
    if (r.outputCut)
      notes.push(`[output cut: more than ${settings.maxOutputBytes} bytes; the start and the end are kept]`);
    if (r.toolLimitHit) notes.push(`[tool calls refused after the limit of ${settings.maxToolCalls}]`);
    notes.push(`[exit code: ${r.exitCode ?? "none"}; ${r.toolCalls} tool call(s)]`);
    const output = r.output.endsWith("\n") || r.output === "" ? r.output : `${r.output}\n`;
    return { content: `${output}${notes.join("\n")}`, isError: r.timedOut || r.exitCode !== 0 };
  },
});
