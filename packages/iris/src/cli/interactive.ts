// The interactive chat (SPEC E1): streamed answers, one progress line per tool call, Ctrl-C
// interrupting the turn (a second one exits), approval and clarify questions, slash commands, and
// lines typed during a turn sent after the round's tool results (L9).
import { createInterface } from "node:readline";
import type { Agent } from "@iris/agent";
import { attachResources, promptText } from "@iris/tools";
import type { GlobalFlags } from "./flags.js";
import { runSlash, type SlashContext } from "./slash.js";
import { startCli } from "./start.js";
import { attachProgress } from "./ui/progress.js";
import { frontEndFromAsk } from "./ui/prompts.js";

interface Busy {
  controller: AbortController;
  agent: Agent;
  interrupted: boolean;
}

export async function runInteractive(flags: GlobalFlags): Promise<number> {
  const started = await startCli(flags);
  if (!started.ok) return started.exitCode;
  const { host } = started;
  const out = process.stdout;
  const rl = createInterface({
    input: process.stdin,
    output: out,
    terminal: process.stdin.isTTY === true,
    historySize: 500,
  });
  let busy: Busy | undefined;
  let pendingAnswer: ((line: string) => void) | undefined;
  let lastSigintAt = 0;
  let exitCode = 0;

  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      out.write(question);
      pendingAnswer = resolve;
    });
  const frontEnd = frontEndFromAsk(ask);
  const detachProgress = attachProgress(host.events, out);
  let midLine = false;
  const offDelta = host.events.on("stream_delta", (d) => {
    out.write(d.text);
    midLine = !d.text.endsWith("\n");
  });

  // A failed attempt's partial text is already on screen: end its line and let the retry's
  // status line say what happened; the answer that follows is the one that counts.
  const offReset = host.events.on("stream_reset", () => {
    if (midLine) out.write(" ⟲\n");
    midLine = false;
  });

  const banner = () => {
    const r = host.runtime;
    out.write(
      `iris · ${r.provider}/${r.model} · session ${host.session.id.slice(0, 8)} · /help for commands\n`,
    );
  };
  const prompt = () => {
    rl.setPrompt("› ");
    rl.prompt();
  };

  const runTurn = async (text: string) => {
    const agent = host.newAgent(frontEnd);
    busy = { controller: new AbortController(), agent, interrupted: false };
    try {
      const result = await agent.run(text, { signal: busy.controller.signal });
      if (midLine) out.write("\n");
      midLine = false;
      if (result.reason !== "natural") out.write(`[${result.reason}] ${result.text}\n`);
    } finally {
      busy = undefined;
    }
  };

  const slashCtx: SlashContext = { host, out, exit: () => rl.close() };

  const done = new Promise<number>((resolve) => {
    rl.on("close", () => resolve(exitCode));
  });

  rl.on("line", (line) => {
    if (pendingAnswer) {
      const answer = pendingAnswer;
      pendingAnswer = undefined;
      answer(line);
      return;
    }
    const text = line.trim();
    if (busy) {
      if (text && busy.agent.inject({ role: "user", content: text }))
        out.write("(queued: sent after this round's tool results)\n");
      return;
    }
    if (!text) return prompt();
    if (text.startsWith("/mcp__")) {
      // An MCP prompt: its text goes out as this message.
      void promptText(started.process.tools.mcp, text)
        .then((body) => {
          if (body === undefined) {
            out.write(`no MCP prompt '${text.split(/\s+/)[0]}' (see /help)\n`);
            return;
          }
          return runTurn(body);
        })
        .catch((err: unknown) => {
          out.write(`iris: ${(err as Error).message}\n`);
        })
        .then(prompt);
      return;
    }
    if (text.startsWith("/")) {
      void runSlash(text, slashCtx).then((keepGoing) => {
        if (keepGoing) prompt();
      });
      return;
    }
    // `@server:uri` attaches an MCP resource's text to the message.
    const withResources = text.includes("@")
      ? attachResources(started.process.tools.mcp, text)
      : Promise.resolve(text);
    void withResources.then(runTurn).then(prompt, (err) => {
      out.write(`iris: ${(err as Error).message}\n`);
      prompt();
    });
  });

  rl.on("SIGINT", () => {
    if (pendingAnswer) {
      const answer = pendingAnswer;
      pendingAnswer = undefined;
      answer("");
    }
    if (busy) {
      if (busy.interrupted) {
        exitCode = 130;
        rl.close();
        return;
      }
      busy.interrupted = true;
      busy.controller.abort();
      out.write("\n(interrupted — Ctrl-C again to quit)\n");
      return;
    }
    const now = Date.now();
    if (now - lastSigintAt < 2000) {
      exitCode = 130;
      rl.close();
      return;
    }
    lastSigintAt = now;
    out.write("\n(Ctrl-C again or /exit to quit)\n");
    prompt();
  });

  banner();
  prompt();
  const code = await done;
  busy?.controller.abort();
  offDelta();
  offReset();
  detachProgress();
  await started.process.close();
  out.write("\n");
  return code;
}
