// Approval and clarify questions on a terminal (SPEC T4, E5). Used by the one-shot mode; the
// interactive chat asks through its own line editor.
import { createInterface } from "node:readline/promises";
import type { FrontEnd } from "@iris/agent";
import type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";

/** `signal` ends when the turn does: the question is withdrawn. */
type Ask = (question: string, signal?: AbortSignal) => Promise<string>;

export function approvalQuestion(req: ApprovalRequest): string {
  return `\n⚠ ${req.tool} wants to run:\n    ${req.command}\n  (${req.reason})\n  Allow? [o]nce, [s]ession, [a]lways, [d]eny: `;
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

export function frontEndFromAsk(ask: Ask): FrontEnd {
  return {
    approve: async (req, signal) => parseApproval(await ask(approvalQuestion(req), signal)),
    clarify: async (question, choices, signal) =>
      parseClarify(await ask(clarifyQuestion(question, choices), signal), choices),
  };
}

/** Asks on the given streams, one question at a time. */
export function terminalFrontEnd(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): FrontEnd {
  let queue: Promise<unknown> = Promise.resolve();
  const ask: Ask = (question) => {
    const next = queue.then(async () => {
      const rl = createInterface({ input, output, terminal: false });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };
  return frontEndFromAsk(ask);
}
