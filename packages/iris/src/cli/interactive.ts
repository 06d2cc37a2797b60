// The interactive chat (SPEC E1): streamed answers, one progress line per tool call, Ctrl-C
// interrupting the turn (a second one exits), approval and clarify questions, slash commands, and
// lines typed during a turn sent after the round's tool results (L9).
import { createInterface } from "node:readline";
import type { Agent } from "@iris/agent";
import { acquireTurnLease } from "../app/session-lease.js";
import type { GlobalFlags } from "./main.js";
import { onEndSignals } from "./signals.js";
import { runSlash, type SlashContext } from "./slash.js";
import { startCli } from "./start.js";
import { attachProgress } from "./ui/progress.js";
import { frontEndFromAsk, withdrawnNotice } from "./ui/prompts.js";

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

  const ask = (question: string, signal?: AbortSignal) =>
    new Promise<string>((resolve) => {
      if (signal?.aborted) return resolve("");
      out.write(question);
      const answer = (line: string) => {
        signal?.removeEventListener("abort", withdraw);
        resolve(line);
      };
      // A withdrawn question (timed out) lets go of the input: the next line is a new message.
      const withdraw = () => {
        if (pendingAnswer !== answer) return;
        pendingAnswer = undefined;
        out.write(withdrawnNotice(signal as AbortSignal));
        resolve("");
      };
      signal?.addEventListener("abort", withdraw, { once: true });
      pendingAnswer = answer;
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
  let closed = false;
  rl.on("close", () => {
    closed = true;
  });
  const prompt = () => {
    if (closed) return; // a turn that settles after a quit or a signal prompts no more
    rl.setPrompt("› ");
    rl.prompt();
  };

  let turnDone: Promise<void> | undefined;
  const runTurn = async (text: string) => {
    const lease = acquireTurnLease(host.store, host.session.id);
    if (!lease.ok) {
      out.write(`iris: ${lease.message}\n`);
      return;
    }
    const agent = host.newAgent(frontEnd);
    busy = { controller: new AbortController(), agent, interrupted: false };
    try {
      const result = await agent.run(text, { signal: busy.controller.signal });
      if (midLine) out.write("\n");
      midLine = false;
      if (result.reason !== "natural") out.write(`[${result.reason}] ${result.text}\n`);
    } finally {
      busy = undefined;
      lease.release();
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
    if (text.startsWith("/")) {
      void runSlash(text, slashCtx).then((keepGoing) => {
        if (keepGoing) prompt();
      });
      return;
    }
    turnDone = runTurn(text).then(prompt, (err) => {
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

  // SIGTERM/SIGHUP: like Ctrl-C twice, but the turn settles before the store closes.
  const ended = onEndSignals(
    () => {
      exitCode = ended.code ?? 143;
      busy?.controller.abort();
      rl.close();
    },
    () => host.close(),
  );

  banner();
  prompt();
  const code = await done;
  busy?.controller.abort();
  await turnDone;
  ended.off();
  offDelta();
  offReset();
  detachProgress();
  host.close();
  out.write("\n");
  return code;
}
