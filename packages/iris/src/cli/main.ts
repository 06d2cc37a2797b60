#!/usr/bin/env node
// `iris`: the command-line front end (SPEC E1, K5). Parses arguments, then loads only what the
// chosen command needs.
import { Command, InvalidArgumentError, Option } from "commander";
import type { GlobalFlags } from "./flags.js";
import { addGatewayCommands } from "./gateway-commands.js";

function intArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number ≥ 0");
  return n;
}

export function buildProgram(): Command {
  const program = new Command("iris")
    .description("An LLM agent harness: chat, tools, sessions, all in one home folder.")
    .option("-p, --print <text>", "one-shot: run TEXT as a turn and print only the answer")
    .option("--provider <id>", "provider id (openai, anthropic, openrouter, ollama, …)")
    .option("--model <name>", "model name as the provider spells it")
    .option("--base-url <url>", "endpoint of an OpenAI-compatible or other server")
    .addOption(
      new Option("--api-mode <mode>", "wire format").choices([
        "chat_completions",
        "responses",
        "anthropic_messages",
      ]),
    )
    .option("--profile <name>", "use ~/.iris/profiles/NAME")
    .option("--yolo", "approvals off for this run (hard-blocked commands stay blocked)")
    .option("--max-rounds <n>", "model calls per turn (0 = unlimited)", intArg)
    .option("-r, --resume <id>", "continue a stored session")
    .option("-c, --continue", "continue the most recent CLI session")
    .showHelpAfterError()
    .exitOverride()
    .action(async (flags: GlobalFlags) => {
      if (flags.print !== undefined) {
        const { runOneShot } = await import("./oneshot.js");
        process.exitCode = await runOneShot(flags.print, flags);
      } else {
        const { runInteractive } = await import("./interactive.js");
        process.exitCode = await runInteractive(flags);
      }
    });

  const sessions = program.command("sessions").description("list, show and search stored sessions");
  sessions
    .command("list")
    .option("-n, --limit <n>", "how many", intArg, 20)
    .action(async (o: { limit: number }) => {
      const { sessionsList } = await import("./commands/sessions.js");
      process.exitCode = sessionsList(program.opts(), o.limit);
    });
  sessions.command("show <id>").action(async (id: string) => {
    const { sessionsShow } = await import("./commands/sessions.js");
    process.exitCode = sessionsShow(program.opts(), id);
  });
  sessions
    .command("search <query...>")
    .option("-n, --limit <n>", "how many", intArg, 20)
    .action(async (query: string[], o: { limit: number }) => {
      const { sessionsSearch } = await import("./commands/sessions.js");
      process.exitCode = sessionsSearch(program.opts(), query.join(" "), o.limit);
    });
  program
    .command("usage")
    .description("tokens and cost per session, or per API call of one session")
    .option("-s, --session <id>", "one session (an id or a unique prefix): its calls, one per line")
    .option("-n, --last <n>", "how many sessions (default 10), or with --session the newest calls", intArg)
    .action(async (o: { session?: string; last?: number }) => {
      const { usageCommand } = await import("./commands/usage.js");
      process.exitCode = usageCommand(program.opts(), o);
    });
  program
    .command("doctor")
    .description("check routes, keys, models, permissions, the gateway and stored history")
    .option("--repair", "persist the repair of broken stored histories (append-only)")
    .action(async (o: { repair?: boolean }) => {
      const { doctorCommand } = await import("./commands/doctor.js");
      process.exitCode = doctorCommand(program.opts(), o);
    });
  const effects = program.command("effects").description("tool effects a crash left unsettled");
  effects
    .command("list")
    .description("unresolved effect receipts (--all: every receipt)")
    .option("--all", "every receipt, settled ones too")
    .action(async (o: { all?: boolean }) => {
      const { effectsList } = await import("./commands/effects.js");
      process.exitCode = effectsList(program.opts(), o.all === true);
    });
  effects
    .command("resolve <id> <outcome>")
    .description("settle an uncertain effect as applied or not-applied, with the evidence you checked")
    .requiredOption("--evidence <text>", "what you checked (kept with the receipt)")
    .action(async (id: string, outcome: string, o: { evidence: string }) => {
      const { effectsResolve } = await import("./commands/effects.js");
      process.exitCode = effectsResolve(program.opts(), id, outcome, o.evidence);
    });
  program
    .command("context")
    .description("the context budget of the current provider/model: window, trigger, compressions")
    .option("-s, --session <id>", "also the session's last measured prompt and compressions so far")
    .action(async (o: { session?: string }) => {
      const { contextCommand } = await import("./commands/context.js");
      process.exitCode = contextCommand(program.opts(), o);
    });
  addGatewayCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  for (const c of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)])
    c.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    const code = (err as { code?: string; exitCode?: number }).code;
    if (code === "commander.helpDisplayed" || code === "commander.version" || code === "commander.help") {
      process.exitCode = 0;
      return;
    }
    if (code?.startsWith("commander.")) {
      process.exitCode = 2; // usage error (SPEC K5); commander already printed why
      return;
    }
    process.stderr.write(`iris: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}

await main(process.argv);
