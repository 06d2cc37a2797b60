// `iris -p TEXT`: one turn, the answer alone on stdout, progress and problems on stderr,
// the exit code of SPEC K5 (0 natural, 1 error end, 2 usage/config, 130 interrupted).
import { exitCodeFor } from "@iris/agent";
import type { GlobalFlags } from "./flags.js";
import { startCli } from "./start.js";
import { attachProgress } from "./ui/progress.js";
import { terminalFrontEnd } from "./ui/prompts.js";

export async function runOneShot(text: string, flags: GlobalFlags): Promise<number> {
  if (!text.trim()) {
    process.stderr.write("iris: -p needs a prompt\n");
    return 2;
  }
  const started = await startCli(flags);
  if (!started.ok) return started.exitCode;
  const { host } = started;
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  const detach = attachProgress(host.events, process.stderr);
  try {
    const frontEnd = process.stdin.isTTY ? terminalFrontEnd(process.stdin, process.stderr) : {};
    const agent = host.newAgent(frontEnd);
    const result = await agent.run(text, { signal: controller.signal });
    if (result.reason === "natural" || result.reason === "forced_text")
      process.stdout.write(`${result.text}\n`);
    else process.stderr.write(`iris: ${result.reason}: ${result.text}\n`);
    return exitCodeFor(result.reason);
  } finally {
    detach();
    process.off("SIGINT", onSigint);
    await started.process.close();
  }
}
