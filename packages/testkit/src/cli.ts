#!/usr/bin/env node
/**
 * iris-fake-llm: runs the fake LLM server as a process.
 * stdout line 1 is the base URL; everything else goes to stderr.
 */
import { parseArgs } from "node:util";
import { loadScript } from "./script.js";
import { startFakeLlm } from "./server.js";
import type { Step } from "./types.js";

const USAGE = "usage: iris-fake-llm [--port N] [--script FILE] [--no-validate]";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      script: { type: "string" },
      "no-validate": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  }
  const steps: Step[] = values.script === undefined ? [] : loadScript(values.script);
  const fake = await startFakeLlm({ port, validate: !values["no-validate"] });
  let served = 0;
  fake.setHandler((req) => {
    served += 1;
    const step = steps.shift() ?? { text: "fake reply" };
    process.stderr.write(`fake-llm: #${served} ${req.method} ${req.path} (${req.apiMode})\n`);
    return step;
  });
  process.stdout.write(`${fake.baseUrl}\n`);
  process.stderr.write(`fake-llm: listening on ${fake.baseUrl} with ${steps.length} scripted step(s)\n`);
  const stop = (signal: string): void => {
    process.stderr.write(`fake-llm: ${signal}, closing (${fake.violations.length} shape violation(s))\n`);
    fake.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: unknown) => {
  process.stderr.write(`iris-fake-llm: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exit(2);
});
