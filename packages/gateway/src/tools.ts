// The gateway's own tools: `send_message` posts to a configured chat, `send_file`
// (send-file.ts) sends a file to the chat being answered, `cronjob` manages the scheduled jobs
// `iris cron list|add|remove` manages. They act outward (a post someone reads, a prompt that runs
// unattended later), so each is approved under its own rule; listing asks nothing. The tools are
// registered when the process opens (so a session's frozen prompt names them) and reach the
// running gateway through a port bound once it exists.
import { createHash } from "node:crypto";
import { defineTool, type ToolDefinition } from "@iris/tools";
import { z } from "zod";
import { parseSchedule } from "./cron.js";
import { sendFileTool } from "./send-file.js";
import { fail, type GatewayToolPort, resolveTarget } from "./tool-port.js";

export { configuredTargets, type GatewayToolPort } from "./tool-port.js";

function sendParams(example: string) {
  return z
    .object({
      to: z.string().min(1).describe(`Where to post: PLATFORM:CHAT (a channel or a user), e.g. ${example}`),
      message: z.string().min(1).describe("The text to post"),
    })
    .strict();
}

const cronParams = z
  .object({
    action: z.enum(["list", "add", "remove"]),
    schedule: z
      .string()
      .optional()
      .describe('add: "every 30m", a cron expression such as "0 9 * * 1-5", or "at 2026-12-24T18:00Z"'),
    to: z.string().optional().describe("add: the chat the job's answer goes to, PLATFORM:CHAT"),
    prompt: z.string().optional().describe("add: what the job asks the agent each time it runs"),
    missed: z
      .enum(["run", "skip"])
      .optional()
      .describe(
        "add: a slot missed while the gateway was down runs once late (run, the default) or is skipped",
      ),
    id: z.string().optional().describe("remove: the job's id (from list)"),
  })
  .strict();

/** The tools, bound to a gateway later (`bind`); before that they say the gateway is not running. */
export class GatewayTools {
  private port: GatewayToolPort | undefined;
  private readonly example: string;

  /** `examples`: a target on each configured platform ("PLATFORM:CHAT"), for the tools' help. */
  constructor(examples: readonly string[] = []) {
    this.example = examples.length ? examples.join(" or ") : "chat:#team";
  }

  bind(port: GatewayToolPort): void {
    this.port = port;
  }

  get definitions(): ToolDefinition[] {
    return [
      this.sendMessage(),
      sendFileTool(() => this.port, this.example),
      this.cronjob(),
    ] as ToolDefinition[];
  }

  private sendMessage() {
    return defineTool({
      name: "send_message",
      toolset: "messaging",
      description:
        "Post a message to a chat the gateway is configured for (a channel or an allowed user), e.g. to tell a team something. The user approves each post.",
      parameters: sendParams(this.example),
      effect: "communicate",
      approvalRule: (args) => ({
        key: "send_message",
        description: "post a message to a chat",
        subject: `send_message to ${args.to}: ${args.message.slice(0, 200)}`,
      }),
      execute: async (args, ctx) => {
        const port = this.port;
        if (!port) return fail("the gateway is not running: send_message works inside `iris gateway run`");
        const target = await resolveTarget(port, args.to, this.example);
        if (!target.ok) return fail(target.error);
        // One key per turn and message: a retried call of the same turn never posts twice.
        const digest = createHash("sha256").update(`${args.to}\n${args.message}`).digest("hex").slice(0, 16);
        await port.post(`send:${ctx.sessionId ?? ""}:${ctx.taskId}:${digest}`, target.addr, args.message);
        return JSON.stringify({ sent: true, to: args.to });
      },
    });
  }

  private cronjob() {
    return defineTool({
      name: "cronjob",
      toolset: "cronjob",
      description:
        "List, add or remove scheduled jobs of the gateway. Each job runs its prompt with a fresh agent on its schedule and posts the answer to its chat. Adding and removing are approved by the user.",
      parameters: cronParams,
      effect: "admin",
      approvalRule: (args) =>
        args.action === "list"
          ? undefined
          : {
              key: `cronjob:${args.action}`,
              description: `${args.action} a scheduled job`,
              subject:
                args.action === "add"
                  ? `cronjob add ${args.schedule ?? "?"} → ${args.to ?? "?"}: ${(args.prompt ?? "").slice(0, 200)}`
                  : `cronjob remove ${args.id ?? "?"}`,
            },
      execute: async (args) => {
        const port = this.port;
        if (!port) return fail("the gateway is not running: cronjob works inside `iris gateway run`");
        const cron = await port.cronState();
        if (args.action === "list")
          return JSON.stringify({
            jobs: (await cron.list()).map((j) => ({
              id: j.id,
              schedule: j.schedule,
              to: `${j.platform}:${j.chatId}`,
              missed: j.missed,
              prompt: j.prompt,
              last_run: j.lastSlot === null ? null : new Date(j.lastSlot).toISOString(),
            })),
          });
        if (args.action === "remove") {
          if (!args.id) return fail("id: remove needs the job's id (see action list)");
          return (await cron.remove(args.id))
            ? JSON.stringify({ removed: args.id })
            : fail(`id: no job ${args.id}`);
        }
        if (!args.schedule) return fail("schedule: add needs a schedule, e.g. every 30m");
        if (!args.to) return fail("to: add needs the chat to post to, PLATFORM:CHAT");
        if (!args.prompt?.trim()) return fail("prompt: add needs the prompt the job runs");
        const parsed = parseSchedule(args.schedule);
        if (!parsed.ok) return fail(`schedule: ${parsed.error}`);
        const target = await resolveTarget(port, args.to, this.example);
        if (!target.ok) return fail(target.error);
        const job = await cron.add({
          schedule: args.schedule.trim(),
          platform: target.addr.platform,
          chatId: target.addr.chatId,
          missed: args.missed ?? "run",
          prompt: args.prompt,
        });
        return JSON.stringify({ added: job.id, schedule: job.schedule, to: args.to, missed: job.missed });
      },
    });
  }
}
