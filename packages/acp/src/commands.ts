// The slash commands an editor offers in its prompt box (`available_commands_update`). They run
// here, between turns, and answer as agent text; they never reach the model.
import type { AvailableCommand } from "@agentclientprotocol/sdk/unstable";
import type { Session } from "@iris/host";
import { shortId } from "@iris/host";
import { listPromptCommands, type McpManager, settleMcpServers } from "@iris/tools";

export const AVAILABLE_COMMANDS: AvailableCommand[] = [
  { name: "compress", description: "Compress this session's history now" },
  { name: "usage", description: "Tokens and cost of this session" },
  {
    name: "model",
    description: "Show the model, or switch: /model [provider/]NAME",
    input: { hint: "[provider/]model" },
  },
  { name: "new", description: "Start a fresh conversation in this thread" },
  { name: "help", description: "The commands Iris answers here" },
];

/**
 * The built-in commands, then every MCP prompt as `/mcp__<server>__<prompt> name=value …` (T6):
 * the prompt's text is sent as the user's message. Servers still starting are waited for, up to
 * their own timeout, so the list names what the editor can run.
 */
export async function availableCommands(manager: McpManager): Promise<AvailableCommand[]> {
  await settleMcpServers(manager);
  const prompts = await listPromptCommands(manager);
  return [
    ...AVAILABLE_COMMANDS,
    ...prompts.map(
      (p): AvailableCommand => ({
        name: p.command.slice(1),
        description: p.description || `MCP prompt ${p.prompt} of ${p.server}`,
        ...(p.arguments.length
          ? {
              input: {
                hint: p.arguments.map((a) => `${a.name}=…${a.required ? "" : " (optional)"}`).join(" "),
              },
            }
          : {}),
      }),
    ),
  ];
}

/**
 * The command and its argument when `text` is a slash command; undefined for ordinary prompts and
 * MCP prompts (`/mcp__…`, expanded into the message). An unknown `/word` is a command too: it is
 * answered here with the list, never sent to the model as a prompt.
 */
export function parseCommand(text: string): { name: string; arg: string } | undefined {
  const m = /^\/(\w+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m || m[1]?.startsWith("mcp__")) return undefined;
  return { name: m[1] as string, arg: (m[2] ?? "").trim() };
}

function commandList(): string {
  return AVAILABLE_COMMANDS.map((c) => `/${c.name} — ${c.description}`).join("\n");
}

/** Runs a command and returns what the editor shows. */
export async function runCommand(session: Session, cmd: { name: string; arg: string }): Promise<string> {
  switch (cmd.name) {
    case "usage": {
      const s = await session.row();
      return (
        `Session ${shortId(s.id)}: ${s.apiCalls} API calls, ${s.inputTokens} input tokens ` +
        `(${s.cacheReadTokens} from cache), ${s.outputTokens} output tokens, $${s.costUsd.toFixed(4)}.`
      );
    }
    case "model": {
      if (!cmd.arg) return `Using ${session.runtime.provider}/${session.runtime.model}.`;
      const result = await session.switchModel(cmd.arg);
      if (!result.ok) return `Could not switch: ${result.error}`;
      return [
        `Now using ${session.runtime.provider}/${session.runtime.model}.`,
        ...result.warnings.map((w) => `! ${w}`),
      ].join("\n");
    }
    case "compress": {
      const done = await session.compressNow();
      return done.ok
        ? `Compressed (phase ${done.phase}): ${done.before} → about ${done.after} tokens.`
        : `Not compressed: ${done.warning}`;
    }
    case "new": {
      const row = await session.startSession();
      return `Started a fresh conversation (session ${shortId(row.id)}).`;
    }
    case "help":
      return `Commands:\n${commandList()}\nMCP prompts run as /mcp__<server>__<prompt>.`;
    default:
      return `Unknown command /${cmd.name}. Commands:\n${commandList()}`;
  }
}
