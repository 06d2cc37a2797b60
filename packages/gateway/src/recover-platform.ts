// What a crash left unanswered on one platform, settled at start (runner.ts): a turn is continued
// once where nothing it did is uncertain (continue-unanswered.ts); the others are told so, once,
// never lost silently.

import type { Logger } from "@iris/llm";
import { type ChatRecovery, notAnsweredText, planRecovery, unansweredByChat } from "./continue-unanswered.js";
import { addressOf, type Chat, type Platform } from "./gateway-chat.js";
import type { TurnOutcome } from "./lane.js";
import type { ChatAddress, InboundMessage } from "./message.js";
import type { GatewayState } from "./state/index.js";

export interface RecoveryPort {
  state: GatewayState;
  logger: Logger;
  deliverReply(p: Platform, addr: ChatAddress, o: TurnOutcome & { reply: string }): Promise<void>;
  chatFor(key: string, p: Platform, addr: ChatAddress, msg: InboundMessage): Chat;
}

export async function recoverUnanswered(port: RecoveryPort, p: Platform): Promise<void> {
  const { state, logger } = port;
  for (const [key, rows] of await unansweredByChat(state, p.adapter.platform)) {
    let plan: ChatRecovery;
    try {
      plan = await planRecovery(state, rows, () => p.chats.get(key));
    } catch (err) {
      logger.warn("gateway: an unanswered turn could not be looked at", { error: String(err) });
      plan = { kind: "report", report: rows.map((row) => ({ row, why: "the gateway restarted" })) };
    }
    for (const { row, why } of plan.report) {
      await p.deliverer.deliver(
        `${row.platform}:${row.messageId}:lost`,
        addressOf(row),
        notAnsweredText(row, why),
      );
      await state.finishInbound(row.platform, row.messageId, "reported");
    }
    if (plan.kind === "deliver") {
      const last = plan.answers[plan.answers.length - 1] as InboundMessage;
      await port.deliverReply(p, addressOf(last), { reply: plan.text, answers: plan.answers });
    } else if (plan.kind === "continue") {
      const last = plan.answers[plan.answers.length - 1] as InboundMessage;
      logger.info("gateway: continuing a turn the restart cut", { chat: key });
      port
        .chatFor(key, p, addressOf(last), last)
        .lane.submit({ msg: last, text: "", continues: plan.answers });
    }
  }
}
