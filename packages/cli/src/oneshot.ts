// `iris -p TEXT`: one turn, the answer alone on stdout, progress and problems on stderr,
// the exit code of SPEC K5 (0 natural, 1 error end, 2 usage/config, 130 interrupted).
// `--output-format json|stream-json` puts a machine-readable result on stdout instead (K6).
import { exitCodeFor, SessionBusyError } from "@iris/host";
import { lookupModel } from "@iris/llm";
import { expandMcpInput } from "@iris/tools";
import type { GlobalFlags } from "./flags.js";
import { UserHooks } from "./hooks/user-hooks.js";
import { withImages } from "./image-input.js";
import { recordToolCalls, resultObject, streamJsonEvents } from "./output-format.js";
import { readPrompt } from "./prompt-input.js";
import { onEndSignals } from "./signals.js";
import { startCli } from "./start.js";
import { attachProgress } from "./ui/progress.js";
import { answerOnTerminal, terminalAsk } from "./ui/prompts.js";
import { turnFeed } from "./ui/turn-feed.js";
import { attachVerbose } from "./ui/verbose.js";

export async function runOneShot(arg: string | true, flags: GlobalFlags): Promise<number> {
  const startedAt = Date.now();
  const prompt = await readPrompt(arg, process.stdin);
  if ("error" in prompt) {
    process.stderr.write(`${prompt.error}\n`);
    return 2;
  }
  const started = await startCli(flags);
  if (!started.ok) return started.exitCode;
  const { session, process: iris } = started;
  const format = flags.outputFormat ?? "text";
  const line = (obj: object) => process.stdout.write(`${JSON.stringify(obj)}\n`);
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  const ended = onEndSignals(
    () => controller.abort(),
    // Best effort before a forced exit: the store is closed synchronously.
    () => iris.closeStoreNow(),
  );
  // Every renderer reads host's turn view (SPEC E5), as the other front ends do.
  const feed = turnFeed((fn) => session.subscribe(fn));
  const progress = format === "stream-json" ? undefined : attachProgress(feed, process.stderr);
  const detachers = [
    progress ?? streamJsonEvents(feed, line),
    ...(flags.verbose ? [attachVerbose(feed, process.stderr)] : []),
    () => feed.close(),
  ];
  const tools = recordToolCalls(feed);
  const hooks = new UserHooks(session.config.hooks, {
    sessionId: () => session.id,
    cwd: process.cwd(),
    warn: (m) => process.stderr.write(`iris: warning: ${m}\n`),
  });
  try {
    // `iris -p "/mcp__server__prompt a=1"` and `@server:uri` work as in the chat.
    const input = await expandMcpInput(iris.tools.mcp, prompt.text);
    if ("error" in input) {
      process.stderr.write(`iris: ${input.error}\n`);
      return 2;
    }
    const { runtime } = session;
    if (format === "stream-json")
      line({
        type: "init",
        session_id: session.id,
        provider: runtime.provider,
        model: runtime.model,
        cwd: process.cwd(),
        tools: session.toolNames,
      });
    // Questions need a terminal to answer on; stdin may be the prompt itself.
    const asking = process.stdin.isTTY;
    if (asking)
      detachers.push(answerOnTerminal(session, terminalAsk(process.stdin, process.stderr, progress?.hold)));
    const frontEnd = hooks.around();
    const withImage = await withImages(input.text, flags.image ?? [], process.cwd());
    if ("error" in withImage) {
      process.stderr.write(`${withImage.error}\n`);
      return 2;
    }
    for (const n of withImage.notes) process.stderr.write(`· ${n}\n`);
    // One live turn per session, across processes and front ends (SPEC D1): send takes it.
    const sent = await session
      .send(withImage.input, { frontEnd, asks: asking ? "events" : "nobody", signal: controller.signal })
      .catch((err: unknown) => {
        if (err instanceof SessionBusyError) return err;
        throw err;
      });
    if (sent instanceof SessionBusyError) {
      process.stderr.write(`iris: ${sent.message}\n`);
      return 1;
    }
    const result = sent;
    await hooks.turnEnded(result);
    // After a store failure the title waits (the store may still be down); the ending is said.
    if (result.reason !== "store_error") await session.ensureTitle(prompt.text);
    if (format === "text") {
      if (result.reason === "natural") process.stdout.write(`${result.text}\n`);
      else process.stderr.write(`iris: ${result.reason}: ${result.text}\n`);
    } else {
      const priceKnown = lookupModel(session.runtime.provider, session.runtime.model).known;
      const obj = resultObject(result, {
        sessionId: session.id,
        provider: session.runtime.provider,
        model: session.runtime.model,
        priceKnown,
        toolCalls: tools.calls,
        startedAt,
      });
      if (format === "json") process.stdout.write(`${JSON.stringify(obj, null, 2)}\n`);
      else line(obj);
    }
    return ended.code ?? exitCodeFor(result.reason);
  } finally {
    tools.detach();
    for (const detach of detachers) detach();
    ended.off();
    process.off("SIGINT", onSigint);
    await iris.close();
  }
}
