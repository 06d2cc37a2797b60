// The mention filter (SPEC G1): one runner-level rule, identical on every platform. In a group
// chat the bot answers only when named (a nick or a wake word as a whole word), replied to, or
// mentioned by the platform itself; in DMs every message counts. The mention is cut from the
// text the agent sees when it opens the message ("iris: hi" → "hi").
import type { InboundMessage } from "../message.js";

export interface MentionPolicy {
  requireMention: boolean;
  wakeWords: readonly string[];
}

export type MentionResult = { addressed: true; text: string } | { addressed: false };

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function filterMention(
  msg: InboundMessage,
  names: readonly string[],
  policy: MentionPolicy,
): MentionResult {
  const text = msg.text;
  if (msg.chatType === "dm" || !policy.requireMention)
    return { addressed: true, text: stripLead(text, names) };
  if (msg.replyToBot || msg.mentionsBot) return { addressed: true, text: stripLead(text, names) };
  const words = [...names, ...policy.wakeWords].filter((w) => w.trim() !== "");
  for (const w of words) {
    // A whole word, case-insensitive; letters, digits and nick characters around it break it.
    const re = new RegExp(
      `(^|[^\\p{L}\\p{N}_\\-\\[\\]\\\\^{}|\`])@?${escapeRe(w)}(?![\\p{L}\\p{N}_\\-\\[\\]\\\\^{}|\`])`,
      "iu",
    );
    if (re.test(text)) return { addressed: true, text: stripLead(text, words) };
  }
  return { addressed: false };
}

/** "nick: text", "nick, text", "@nick text" → "text". */
function stripLead(text: string, names: readonly string[]): string {
  for (const n of names) {
    const m = new RegExp(`^\\s*@?${escapeRe(n)}\\s*[:,]?\\s+`, "iu").exec(text);
    if (m) return text.slice(m[0].length);
  }
  return text;
}
