// The gateway's send_file tool (issue 28): a file from the session's workspace goes to the chat
// being answered (or to a configured chat, approved like send_message) as an attachment, through
// the platform's outbox, so a repeated call of the same turn sends it once. Reading it is judged
// as read_file's reads are: a credential or a file outside the work folder is asked about.
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { defineTool, formatBytes, pathOf } from "@iris/tools";
import { z } from "zod";
import type { ChatAddress } from "./message.js";
import { fail, type GatewayToolPort, resolveTarget } from "./tool-port.js";

const params = (example: string) =>
  z
    .object({
      path: z.string().min(1).describe("The file to send, absolute or relative to the working directory"),
      caption: z.string().max(1000).optional().describe("A short line shown with the file"),
      to: z
        .string()
        .min(1)
        .optional()
        .describe(
          `Another chat to send it to, PLATFORM:CHAT (e.g. ${example}); leave out to send it to the chat you are answering`,
        ),
    })
    .strict();

export function sendFileTool(port: () => GatewayToolPort | undefined, example: string) {
  return defineTool({
    name: "send_file",
    toolset: "messaging",
    description:
      "Send a file from the workspace (a picture, a PDF, a CSV you made, …) to the chat you are answering, as an attachment: pictures show as pictures, anything else as a document. Mention it in your answer; do not paste its content as well.",
    parameters: params(example),
    effect: "communicate",
    // To the chat being answered, it is what a reply is; to another chat, it is a post there.
    approvalRule: (args) =>
      args.to
        ? {
            key: "send_file",
            description: "send a file to another chat",
            subject: `send_file ${args.path} to ${args.to}`,
          }
        : undefined,
    approvalAccess: (args, ctx) => [{ kind: "read", path: pathOf(ctx, args.path) }],
    execute: async (args, ctx) => {
      const p = port();
      if (!p) return fail("the gateway is not running: send_file works inside `iris gateway run`");
      let to: ChatAddress | undefined;
      if (args.to) {
        const target = resolveTarget(p, args.to, example);
        if (!target.ok) return fail(target.error);
        to = target.addr;
      } else {
        to = ctx.sessionId ? p.currentChat(ctx.sessionId) : undefined;
        if (!to)
          return fail(`to: no chat is being answered here; name one as PLATFORM:CHAT (e.g. ${example})`);
      }
      const max = p.maxFileBytes(to.platform);
      if (max === undefined)
        return fail(`to: ${to.platform} cannot send files; say where the file is instead`);
      const file = pathOf(ctx, args.path);
      const read = await ctx.workspace.readFile(file, { maxBytes: max, signal: ctx.signal });
      if (!read.ok)
        return fail(
          read.reason === "too_big"
            ? `path: ${file} is larger than a ${to.platform} bot may send (${formatBytes(max)})`
            : `path: ${read.message}`,
        );
      const name = basename(file);
      // One key per turn and file content: a retried call of the same turn never sends it twice.
      const digest = createHash("sha256")
        .update(`${to.platform}:${to.chatId}:${to.threadId ?? ""}\n${args.caption ?? ""}\n`)
        .update(read.data)
        .digest("hex")
        .slice(0, 16);
      const fresh = await p.postFile(`file:${ctx.sessionId ?? ""}:${ctx.taskId}:${digest}`, to, {
        name,
        data: read.data,
        ...(args.caption ? { caption: args.caption } : {}),
      });
      return JSON.stringify({
        sent: true,
        file: name,
        bytes: read.data.length,
        ...(args.to ? { to: args.to } : {}),
        ...(fresh ? {} : { note: "already sent in this turn; not sent again" }),
      });
    },
  });
}
