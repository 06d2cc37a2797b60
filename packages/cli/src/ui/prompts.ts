// Approval and clarify questions on a terminal (SPEC T4, E5), asked from the session's ask events
// and answered through Session.answer (the one ask protocol). The one-shot mode asks on stdin; the
// interactive chat through its own line editor.
import { createInterface } from "node:readline/promises";
import { answerAsks, type Session } from "@iris/host";
import type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";

/** Asks one line; when `signal` aborts, the question is withdrawn and resolves with "". */
type Ask = (question: string, signal?: AbortSignal) => Promise<string>;

export function approvalQuestion(req: ApprovalRequest): string {
  const always = req.alwaysAllows?.length
    ? `  [a]lways = from now on, in every session, run without asking every command matching:\n${req.alwaysAllows.map((a) => `      ${a}\n`).join("")}    (saved in config.yaml approvals.allow)\n`
    : "";
  const within = req.timeoutSeconds ? ` (within ${req.timeoutSeconds} s)` : "";
  return (
    `\n⚠ ${req.tool} wants to run:\n    ${req.command}\n  (${req.reason})\n` +
    "  [s]ession = these kinds of command for the rest of this session only\n" +
    always +
    `  Allow${within}? [o]nce, [s]ession, [a]lways, [d]eny: `
  );
}

/** Said when a question is withdrawn, so the user knows their next line is not its answer. */
export function withdrawnNotice(signal: AbortSignal): string {
  if (signal.reason === "answered-elsewhere") return "\n(answered in the dashboard)\n";
  return signal.reason === "timeout"
    ? "\n(no answer in time: the command was denied and not run; what you type next is a new message)\n"
    : "\n(approval question withdrawn: the command was not run)\n";
}

export function parseApproval(answer: string): ApprovalAnswer {
  const a = answer.trim().toLowerCase();
  if (a === "o" || a === "once" || a === "y" || a === "yes") return "once";
  if (a === "s" || a === "session") return "session";
  if (a === "a" || a === "always") return "always";
  return "deny";
}

export function clarifyQuestion(question: string, choices?: string[]): string {
  const list = choices?.length ? `\n${choices.map((c, i) => `  ${i + 1}. ${c}`).join("\n")}` : "";
  return `\n? ${question}${list}\n> `;
}

export function parseClarify(answer: string, choices?: string[]): string {
  const n = Number(answer.trim());
  if (choices?.length && Number.isInteger(n) && n >= 1 && n <= choices.length) return choices[n - 1]!;
  return answer.trim();
}

/**
 * Asks the session's questions with `ask`, each answered by its request id; a withdrawn one (the
 * policy's timeout, a stopped turn, the dashboard answering first) stops prompting, so the next
 * line typed is not taken as its answer. Returns the unsubscribe.
 */
export function answerOnTerminal(session: Session, ask: Ask): () => void {
  return answerAsks(session, {
    approval: async (request, signal) => parseApproval(await ask(approvalQuestion(request), signal)),
    clarify: async ({ question, choices }, signal) =>
      parseClarify(await ask(clarifyQuestion(question, choices), signal), choices),
  });
}

/** Asks on the given streams, one question at a time. */
export function terminalAsk(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  /** Called while a question is open (the progress spinner stops); returns the release. */
  hold: () => () => void = () => () => undefined,
): Ask {
  let queue: Promise<unknown> = Promise.resolve();
  const ask: Ask = (question, signal) => {
    const next = queue.then(async () => {
      if (signal?.aborted) return "";
      const rl = createInterface({ input, output, terminal: false });
      const release = hold();
      try {
        return await rl.question(question, signal ? { signal } : {});
      } catch (e) {
        if (!signal?.aborted) throw e;
        output.write(withdrawnNotice(signal));
        return "";
      } finally {
        release();
        rl.close();
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };
  return ask;
}
