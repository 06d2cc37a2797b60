// `iris batch IN.jsonl --out OUT.jsonl …`: its own argument parser (its --resume is a switch, the
// chat's --resume takes a session id), then @iris/batch, loaded only for this command.
import { Command, InvalidArgumentError, Option } from "commander";

function count(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}`);
    return n;
  };
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a number > 0");
  return n;
}

function list(value: string): string[] {
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!items.length) throw new InvalidArgumentError("expected a comma-separated list");
  return items;
}

const STATUSES = ["failed", "discarded", "budget_exceeded", "completed"];

function statuses(value: string): string[] {
  const items = list(value);
  const bad = items.filter((s) => !STATUSES.includes(s));
  if (bad.length)
    throw new InvalidArgumentError(`unknown status ${bad.join(", ")} (one of ${STATUSES.join(", ")})`);
  return items;
}

export function buildBatchProgram(): Command {
  return new Command("iris batch")
    .description(
      "Run every prompt of a JSONL file (one {prompt, id?, system?, cwd?, toolsets?, model?, …} per line) " +
        "and write one trajectory per item to OUT; resumable with --resume.",
    )
    .argument("<input>", "JSONL file of prompts")
    .requiredOption("--out <file>", "trajectories, one JSON line per item (errors go to OUT.failed.jsonl)")
    .option("--concurrency <n>", "items run at once (default: config batch.concurrency, 4)", count(1))
    .option("--max-rounds <n>", "model calls per item (0 = unlimited)", count(0))
    .option("--toolsets <a,b>", "toolsets offered to every item (an item's own `toolsets` wins)", list)
    .option("--model <spec>", "MODEL or PROVIDER/MODEL (an item's own `model` wins)")
    .option("--provider <id>", "provider id")
    .option("--base-url <url>", "endpoint of an OpenAI-compatible or other server")
    .addOption(
      new Option("--api-mode <mode>", "wire format").choices([
        "chat_completions",
        "responses",
        "anthropic_messages",
      ]),
    )
    .addOption(
      new Option("--format <layout>", "the rows' conversation layout (default sharegpt)").choices([
        "sharegpt",
        "openai",
      ]),
    )
    .option("--budget-usd <x>", "stop starting items once the output's cost reaches X", positive)
    .option("--max-items <n>", "only the first N items of the input", count(1))
    .option("--resume", "continue OUT: skip exactly the items that already have a row")
    .option(
      "--rerun <statuses>",
      "with --resume: run the items with these statuses again (e.g. failed)",
      statuses,
    )
    .option("--force", "resume even when the input no longer matches the output")
    .option("--item-timeout <seconds>", "wall-clock limit per item (default: config, 600)", positive)
    .option("--failed <file>", "the failure file (default OUT.failed.jsonl)")
    .option("--json-summary <file>", "also write the end-of-run summary as JSON")
    .option("--keep-workdirs", "keep each item's temp working directory")
    .option(
      "--queue",
      "hand the items to `iris worker` processes through the work queue (config queue:) and write OUT as they finish",
    )
    .option("--profile <name>", "use ~/.iris/profiles/NAME");
}

interface BatchFlags {
  out: string;
  concurrency?: number;
  maxRounds?: number;
  toolsets?: string[];
  model?: string;
  provider?: string;
  baseUrl?: string;
  apiMode?: "chat_completions" | "responses" | "anthropic_messages";
  budgetUsd?: number;
  maxItems?: number;
  resume?: boolean;
  rerun?: ("failed" | "discarded" | "budget_exceeded" | "completed")[];
  force?: boolean;
  itemTimeout?: number;
  failed?: string;
  jsonSummary?: string;
  keepWorkdirs?: boolean;
  format?: "sharegpt" | "openai";
  queue?: boolean;
  profile?: string;
}

/** Parses `args` (what follows `batch`) and runs; returns the exit code. */
export async function batchMain(args: string[]): Promise<number> {
  const program = buildBatchProgram().exitOverride();
  try {
    program.parse(args, { from: "user" });
  } catch (err) {
    const code = (err as { code?: string }).code;
    return code === "commander.helpDisplayed" || code === "commander.help" ? 0 : 2;
  }
  const flags = program.opts<BatchFlags>();
  const [input] = program.args;
  if (flags.rerun && !flags.resume) {
    process.stderr.write("iris batch: --rerun needs --resume\n");
    return 2;
  }
  const { runBatch } = await import("@iris/batch");
  const controller = new AbortController();
  let signals = 0;
  const onSignal = () => {
    signals += 1;
    if (signals > 1) process.exit(130);
    process.stderr.write(
      flags.queue
        ? "\niris batch: stopping; the queued items stay queued and --resume collects their rows\n"
        : "\niris batch: stopping; items in flight leave no row and continue on --resume\n",
    );
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await runBatch({
      input: input ?? "",
      out: flags.out,
      ...(flags.failed ? { failed: flags.failed } : {}),
      ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
      ...(flags.maxRounds !== undefined ? { maxRounds: flags.maxRounds } : {}),
      ...(flags.toolsets ? { toolsets: flags.toolsets } : {}),
      ...(flags.model ? { model: flags.model } : {}),
      ...(flags.provider ? { provider: flags.provider } : {}),
      ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.apiMode ? { apiMode: flags.apiMode } : {}),
      ...(flags.budgetUsd !== undefined ? { budgetUsd: flags.budgetUsd } : {}),
      ...(flags.maxItems !== undefined ? { maxItems: flags.maxItems } : {}),
      resume: flags.resume === true,
      force: flags.force === true,
      ...(flags.rerun ? { rerun: flags.rerun } : {}),
      ...(flags.profile ? { profile: flags.profile } : {}),
      ...(flags.jsonSummary ? { jsonSummary: flags.jsonSummary } : {}),
      ...(flags.itemTimeout !== undefined ? { itemTimeoutSeconds: flags.itemTimeout } : {}),
      keepWorkdirs: flags.keepWorkdirs === true,
      ...(flags.format ? { format: flags.format } : {}),
      queue: flags.queue === true,
      signal: controller.signal,
    });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
