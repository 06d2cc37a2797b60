#!/usr/bin/env node
import { cliParts, closest, endQuietlyOnClosedPipes, type GlobalFlags, IRIS_VERSION } from "@iris/cli";
// `iris`: the bin (SPEC E1, K5, K6). Parses arguments, then loads only the front end the chosen
// command needs: the CLI (@iris/cli, one part per command), acp, serve, the gateway, the dashboard
// or batch.
import { loadPlatformClis, type PlatformCli, registerGatewayPlatforms } from "@iris/gateway/platform-configs";
import type { SessionRow } from "@iris/host";
import type { Message } from "@iris/llm";
import { Command, InvalidArgumentError, Option } from "commander";
import { addGatewayCommands } from "./gateway-commands.js";

/** The options of `iris` a front-end command takes too (commander lists only its own). */
const FRONT_END_OPTIONS = `
Options of iris that apply here too:
  --profile <name>      use ~/.iris/profiles/NAME
  --provider <id>       provider id (openai, anthropic, openrouter, ollama, …)
  --model <name>        model name as the provider spells it
  --base-url <url>      endpoint of an OpenAI-compatible or other server
  --api-mode <mode>     wire format (chat_completions, responses, anthropic_messages)`;

// Every command reads config.yaml: its gateway.platforms sections are checked by the platforms'
// own schemas (zod only; no client library loads here).
registerGatewayPlatforms();

function listArg(value: string): string[] {
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length) throw new InvalidArgumentError("expected names separated by commas");
  return names;
}

function intArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number ≥ 0");
  return n;
}

function positiveIntArg(value: string): number {
  const n = intArg(value);
  if (n < 1) throw new InvalidArgumentError("expected a whole number ≥ 1");
  return n;
}

export function buildProgram(platformClis: Readonly<Record<string, PlatformCli>> = {}): Command {
  const program = new Command("iris")
    .description("An LLM agent harness: chat, tools, sessions, all in one home folder.")
    .version(IRIS_VERSION, "-V, --version", "print the version")
    .usage("[options] [command]")
    .argument("[words...]")
    .option(
      "-p, --print [text]",
      "one-shot: run TEXT (then stdin, when piped) as a turn and print only the answer; -p - reads stdin only",
    )
    .addOption(
      new Option("--output-format <format>", "one-shot output (schemas in README: Scripting)")
        .choices(["text", "json", "stream-json"])
        .default("text"),
    )
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
    .option("-r, --resume [id]", "continue a stored session (without an id: pick one)")
    .option("-c, --continue", "continue the most recent CLI session in this folder")
    .option("--system-prompt <text>", "use TEXT as the system prompt of a new session")
    .option("--append-system-prompt <text>", "add TEXT to the end of a new session's system prompt")
    .option("--toolsets <names>", "toolsets for this run, comma-separated (e.g. file,terminal)", listArg)
    .option("-C, --dir <path>", "working directory for this run")
    .option(
      "--image <file>",
      "send an image with the prompt (repeatable; also @photo.png in the text)",
      collectArg,
      [],
    )
    .option("--verbose", "log model calls, retries, fallbacks and tools to stderr")
    .showHelpAfterError()
    .exitOverride()
    .action(async (words: string[], flags: GlobalFlags) => {
      // `iris "fix the tests"` starts a chat with that message; one bare word, or words led by a
      // near-miss of a command (`iris sesions list`), is a command typo.
      const head = words[0] ?? "";
      const typo = closest(head, [...program.commands.map((c) => c.name()), "help"]) !== undefined;
      const first =
        (words.length > 1 && !typo) || /\s/.test(head.trim()) ? words.join(" ").trim() : undefined;
      if (words.length && first === undefined) {
        process.exitCode = unknownCommand(program, words[0]!);
        return;
      }
      if (flags.dir !== undefined && !enterDir(flags.dir)) {
        process.exitCode = 2;
        return;
      }
      const { stdinHasInput } = await cliParts.promptInput();
      if (flags.print !== undefined || (!process.stdin.isTTY && stdinHasInput(process.stdin))) {
        const { runOneShot } = await cliParts.oneShot();
        process.exitCode = await runOneShot(flags.print ?? true, flags);
      } else {
        const { runInteractive } = await cliParts.interactive();
        process.exitCode = await runInteractive(flags, first);
      }
    });

  program
    .command("acp")
    .description(
      "be an agent for editors: the Agent Client Protocol on stdin/stdout (Zed, JetBrains, Neovim, VS Code)",
    )
    .addHelpText("after", FRONT_END_OPTIONS)
    .action(async () => {
      const { runAcp } = await import("./commands/acp.js");
      process.exitCode = await runAcp(program.opts());
    });
  const sessions = program.command("sessions").description("list, show and search stored sessions");
  sessions
    .command("list")
    .option("-n, --limit <n>", "how many", intArg, 20)
    .action(async (o: { limit: number }) => {
      const { sessionsList } = await cliParts.sessions();
      process.exitCode = await sessionsList(program.opts(), o.limit);
    });
  sessions.command("show <id>").action(async (id: string) => {
    const { sessionsShow } = await cliParts.sessions();
    process.exitCode = await sessionsShow(program.opts(), id);
  });
  sessions
    .command("delete <id>")
    .description("delete a session with its history, usage and receipts")
    .action(async (id: string) => {
      const { sessionsDelete } = await cliParts.sessions();
      process.exitCode = await sessionsDelete(program.opts(), id);
    });
  sessions
    .command("export <id>")
    .description("print a session as Markdown, JSON, ShareGPT-style JSONL or an OpenAI fine-tuning line")
    .addOption(
      new Option("--format <format>", "md, json, jsonl or openai")
        .choices(["md", "json", "jsonl", "openai"])
        .default("md"),
    )
    .action(async (id: string, o: { format: "md" | "json" | "jsonl" | "openai" }) => {
      const { sessionsExport } = await cliParts.sessions();
      let openAi: ((row: SessionRow, messages: readonly Message[]) => string) | undefined;
      if (o.format === "openai") {
        const { builtinToolSpecs, openAiExport } = await import("./commands/session-export-openai.js");
        const builtins = await builtinToolSpecs();
        openAi = (row, messages) => openAiExport(row, messages, builtins);
      }
      process.exitCode = await sessionsExport(program.opts(), id, o.format, openAi);
    });
  sessions
    .command("search <query...>")
    .option("-n, --limit <n>", "how many", intArg, 20)
    .action(async (query: string[], o: { limit: number }) => {
      const { sessionsSearch } = await cliParts.sessions();
      process.exitCode = await sessionsSearch(program.opts(), query.join(" "), o.limit);
    });
  program
    .command("usage")
    .description("tokens and cost per session, per API call of one session, or per day or model")
    .option("-s, --session <id>", "one session (an id or a unique prefix): its calls, one per line")
    .option("-n, --last <n>", "how many sessions (default 10), or with --session the newest calls", intArg)
    .addOption(
      new Option("--by <what>", "totals per UTC day or per provider/model instead of per session").choices([
        "day",
        "model",
      ]),
    )
    .option("--days <n>", "with --by: how many days back, today included (default 30)", intArg)
    .action(async (o: { session?: string; last?: number; by?: "day" | "model"; days?: number }) => {
      if (o.by && o.session !== undefined) {
        process.stderr.write("iris: usage --by sums every session; leave out --session\n");
        process.exitCode = 2;
        return;
      }
      if (o.days !== undefined && (!o.by || o.days < 1)) {
        process.stderr.write("iris: usage --days N needs --by day or --by model, and N ≥ 1\n");
        process.exitCode = 2;
        return;
      }
      const { usageCommand } = await cliParts.usage();
      process.exitCode = await usageCommand(program.opts(), o);
    });
  program
    .command("doctor")
    .description("check routes, keys, models, permissions, the gateway and stored history")
    .option("--repair", "persist the repair of broken stored histories (append-only)")
    .option("--offline", "do not connect to the configured endpoints")
    .action(async (o: { repair?: boolean; offline?: boolean }) => {
      const { doctorCommand } = await cliParts.doctor();
      process.exitCode = await doctorCommand(program.opts(), o);
    });
  program
    .command("migrate")
    .description(
      "bring the profile's store (store: in config.yaml) and the front ends' tables to this Iris's schema",
    )
    .action(async () => {
      const { migrateCommand } = await cliParts.migrate();
      const { FRONT_END_TABLE_SETS } = await import("./table-sets.js");
      process.exitCode = await migrateCommand(program.opts(), FRONT_END_TABLE_SETS);
    });
  const skills = program.command("skills").description("skills of the profile and of .iris/skills here");
  skills.command("list").action(async () => {
    const { skillsList } = await cliParts.skills();
    process.exitCode = skillsList(program.opts());
  });
  skills.command("show <name>").action(async (name: string) => {
    const { skillsShow } = await cliParts.skills();
    process.exitCode = skillsShow(program.opts(), name);
  });
  skills
    .command("install <path>")
    .description("copy a skill folder (or a .tar.gz of one) into the profile")
    .action(async (path: string) => {
      const { skillsInstall } = await cliParts.skills();
      process.exitCode = skillsInstall(program.opts(), path);
    });
  program
    .command("tools")
    .description("the built-in tools a platform offers, and why each other one is not offered")
    .option("--platform <name>", "cli, gateway, acp, api, cron, batch, …", "cli")
    .action(async (o: { platform: string }) => {
      const { toolsCommand } = await cliParts.tools();
      process.exitCode = await toolsCommand(program.opts(), o.platform);
    });
  const mcp = program.command("mcp").description("MCP servers of mcp_servers in config.yaml");
  mcp
    .command("list")
    .description("each server's state, tools and last error (starts them once)")
    .action(async () => {
      const { mcpCommand } = await cliParts.mcp();
      process.exitCode = await mcpCommand(program.opts());
    });
  mcp
    .command("test <name>")
    .description("start one server and show its tools with their descriptions, or why it fails")
    .action(async (name: string) => {
      const { mcpCommand } = await cliParts.mcp();
      process.exitCode = await mcpCommand(program.opts(), name);
    });
  mcp
    .command("serve")
    .description("serve Iris's conversation search and memory as an MCP server over stdio")
    .action(async () => {
      const { mcpServe } = await cliParts.mcp();
      process.exitCode = await mcpServe(program.opts());
    });
  const effects = program.command("effects").description("tool effects a crash left unsettled");
  effects
    .command("list")
    .description("unresolved effect receipts (--all: every receipt)")
    .option("--all", "every receipt, settled ones too")
    .action(async (o: { all?: boolean }) => {
      const { effectsList } = await cliParts.effects();
      process.exitCode = await effectsList(program.opts(), o.all === true);
    });
  effects
    .command("resolve <id> <outcome>")
    .description("settle an uncertain effect as applied or not-applied, with the evidence you checked")
    .requiredOption("--evidence <text>", "what you checked (kept with the receipt)")
    .action(async (id: string, outcome: string, o: { evidence: string }) => {
      const { effectsResolve } = await cliParts.effects();
      process.exitCode = await effectsResolve(program.opts(), id, outcome, o.evidence);
    });
  const serve = program
    .command("serve")
    .description("an OpenAI-compatible API server (/v1/chat/completions, /v1/responses, /v1/models)")
    .option("--host <address>", "address to bind (default serve.host, 127.0.0.1)")
    .option("--port <n>", "port (default serve.port, 8642; 0 = any free port)", intArg)
    .addHelpText("after", FRONT_END_OPTIONS)
    .action(async (o: { host?: string; port?: number }) => {
      const { serveCommand } = await import("./commands/serve.js");
      process.exitCode = await serveCommand(program.opts(), o);
    });
  serve
    .command("hash-key")
    .description("print the sha256 of a key read from stdin, for serve.api_keys")
    .action(async () => {
      const { hashKeyCommand } = await import("./commands/serve.js");
      process.exitCode = await hashKeyCommand();
    });
  program
    .command("worker")
    .description(
      "run batch items from the work queue (config queue:), and on a Postgres profile the gateway's cron jobs, until SIGTERM; any number of workers on any machine",
    )
    .option("--concurrency <n>", "items run at once (default: config batch.concurrency, 4)", positiveIntArg)
    .action(async (o: { concurrency?: number }) => {
      const { workerCommand } = await import("./commands/worker.js");
      process.exitCode = await workerCommand(program.opts(), o);
    });
  program
    .command("dashboard")
    .description(
      "see and steer the profile in a browser: usage and cost, sessions, approvals, cron, logs, config",
    )
    .option("--host <address>", "address to bind (default dashboard.host, 127.0.0.1)")
    .option("--port <n>", "port (default dashboard.port, 9119; 0 = any free port)", intArg)
    .action(async (o: { host?: string; port?: number }) => {
      const { dashboardCommand } = await import("./commands/dashboard.js");
      process.exitCode = await dashboardCommand(program.opts(), o);
    });
  program
    .command("batch")
    .description("run a JSONL file of prompts, one trajectory per item (see: iris batch --help)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      // Reached only with options before `batch` (iris --x batch …): batch parses its own.
      process.stderr.write(
        "iris: put the options of batch after it: iris batch IN.jsonl --out OUT.jsonl …\n",
      );
      process.exitCode = 2;
    });
  program
    .command("context")
    .description("the context budget of the current provider/model: window, trigger, compressions")
    .option("-s, --session <id>", "also the session's last measured prompt and compressions so far")
    .action(async (o: { session?: string }) => {
      const { contextCommand } = await cliParts.context();
      process.exitCode = await contextCommand(program.opts(), o);
    });
  program
    .command("models")
    .description("the catalogue's models with window and price; ✓ marks those the current keys reach")
    .option("--provider <id>", "only this provider's models")
    .action(async (o: { provider?: string }) => {
      const { modelsCommand } = await cliParts.models();
      // `--provider` is also a global flag; after `models` it means the same filter.
      const provider = o.provider ?? (program.opts() as GlobalFlags).provider;
      process.exitCode = await modelsCommand(program.opts(), provider ? { provider } : {});
    });
  const config = program
    .command("config")
    .description("read and edit config.yaml (comments kept, validated)");
  config.command("get <key>").action(async (key: string) => {
    const { configGet } = await cliParts.config();
    process.exitCode = configGet(program.opts(), key);
  });
  config
    .command("set <key> <value>")
    .description("VALUE is YAML: true, 0.7, [file, terminal]")
    .action(async (key: string, value: string) => {
      const { configSet } = await cliParts.config();
      process.exitCode = configSet(program.opts(), key, value);
    });
  config.command("unset <key>").action(async (key: string) => {
    const { configUnset } = await cliParts.config();
    process.exitCode = configUnset(program.opts(), key);
  });
  config.command("path").action(async () => {
    const { configPathCommand } = await cliParts.config();
    process.exitCode = configPathCommand(program.opts());
  });
  program
    .command("setup")
    .description("choose a provider, store its key in .env (mode 600) and choose a model")
    .action(async () => {
      const { runSetup } = await cliParts.setup();
      process.exitCode = await runSetup(program.opts());
    });
  program.helpCommand("help [command]", "help for a command");
  addGatewayCommands(program, platformClis);
  return program;
}

/** `iris sesions`: say what is wrong and what was probably meant (not "too many arguments"). */
function unknownCommand(program: Command, word: string): number {
  const names = program.commands.map((c) => c.name());
  const guess = closest(word, [...names, "help"]);
  process.stderr.write(
    `iris: unknown command '${word}'.${guess ? ` Did you mean 'iris ${guess}'?` : ""}\n` +
      `  commands: ${names.join(", ")}\n` +
      `  to send a prompt: iris -p "${word.length > 30 ? "…" : word}…"   (iris --help for all options)\n`,
  );
  return 2;
}

function enterDir(dir: string): boolean {
  try {
    process.chdir(dir);
    return true;
  } catch (err) {
    process.stderr.write(
      `iris: -C ${dir}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such directory" : (err as Error).message}\n`,
    );
    return false;
  }
}

export async function main(argv: string[]): Promise<void> {
  endQuietlyOnClosedPipes();
  if (argv[2] === "batch") {
    const { batchMain } = await import("./batch.js");
    process.exitCode = await batchMain(argv.slice(3));
    return;
  }
  // `iris gateway webchat add-user …`: the platforms' subcommands load only when the word
  // `gateway` is there (a prompt that says "gateway" merely loads them too; nothing runs).
  const platformClis = argv.slice(2).includes("gateway") ? await loadPlatformClis() : {};
  const program = buildProgram(platformClis);
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

// Not a top-level await: the CLI bundle is CommonJS (so V8 can cache its compiled code), which has
// none. main() catches what a command throws; anything else is a bug worth its stack trace.
main(process.argv).catch((err: unknown) => {
  process.stderr.write(
    `iris: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});

/** A repeatable option's values, in order. */
function collectArg(value: string, previous: string[]): string[] {
  return [...previous, value];
}
