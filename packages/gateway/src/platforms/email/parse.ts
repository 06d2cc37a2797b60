// A parsed e-mail → the gateway's InboundMessage (SPEC G1). A thread is a session: its id is the
// root of the References chain (or In-Reply-To, or the mail's own Message-ID when it starts one).
// A mail to the bot alone is a DM with its sender; one that also went to others is a group chat
// of everyone on it (a reply goes to all of them), addressed to the bot when it is on To, not
// only Cc. Quoted history (">" lines, "On … wrote:", forwarded originals, HTML blockquotes) and
// the signature are cut: the session already holds what was said before.
import { convert } from "html-to-text";
import type { AddressObject, ParsedMail } from "mailparser";
import type { Attachment, InboundMessage } from "../../message.js";

export const PLATFORM = "email";

export interface ThreadHeaders {
  subject: string;
  /** The Message-ID replied to. */
  inReplyTo: string;
  references: string[];
}

export interface ParsedInbound {
  msg: InboundMessage;
  thread: ThreadHeaders;
  /** Attachments with their bytes, for the adapter to save or hand to the model. */
  files: { name: string; contentType: string; content: Buffer }[];
}

const addressesOf = (a: AddressObject | AddressObject[] | undefined): { address: string; name: string }[] =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) =>
    o.value.flatMap((v) => (v.address ? [{ address: v.address.toLowerCase(), name: v.name ?? "" }] : [])),
  );

const idList = (v: string | string[] | undefined): string[] =>
  (Array.isArray(v) ? v : v ? v.split(/\s+/) : []).map((s) => s.trim()).filter((s) => s !== "");

/** The mail's fields, or undefined when it has no sender or Message-ID, or is the bot's own. */
export function normaliseMail(mail: ParsedMail, bot: string, fallbackId: string): ParsedInbound | undefined {
  const own = bot.toLowerCase();
  const from = addressesOf(mail.from)[0];
  if (!from || from.address === own) return undefined;
  // An automatic reply (vacation notices, bounces) is never answered: two bots would loop.
  const auto = mail.headers.get("auto-submitted");
  if (typeof auto === "string" && auto.toLowerCase() !== "no") return undefined;
  const messageId = mail.messageId?.trim() || fallbackId;
  const to = addressesOf(mail.to);
  const cc = addressesOf(mail.cc);
  const others = [...to, ...cc]
    .map((a) => a.address)
    .filter((a, i, all) => a !== own && a !== from.address && all.indexOf(a) === i);
  const references = idList(mail.references);
  const inReplyTo = idList(mail.inReplyTo)[0];
  const root = references[0] ?? inReplyTo ?? messageId;
  const files = (mail.attachments ?? [])
    .filter((a) => a.contentDisposition !== "inline" || !a.related)
    .map((a, i) => ({
      name: a.filename || `attachment-${i + 1}`,
      contentType: a.contentType,
      content: a.content,
    }));
  const text = bodyOf(mail);
  if (text === "" && files.length === 0) return undefined;
  const subject = (mail.subject ?? "").trim();
  const group = others.length > 0;
  const attachments: Attachment[] = files.map((f) => ({
    kind: f.contentType.startsWith("image/")
      ? "image"
      : f.contentType.startsWith("audio/")
        ? "audio"
        : "file",
    name: f.name,
  }));
  const msg: InboundMessage = {
    platform: PLATFORM,
    chatType: group ? "group" : "dm",
    chatId: group ? [from.address, ...others].sort().join(",") : from.address,
    threadId: root,
    userId: from.address,
    userName: from.name ? `${from.name} <${from.address}>` : from.address,
    handle: from.address,
    text: subject && !references.length && !inReplyTo ? `${subject}\n\n${text}`.trim() : text,
    attachments,
    messageId,
    ...(group && to.some((a) => a.address === own) ? { mentionsBot: true } : {}),
  };
  return {
    msg,
    thread: { subject, inReplyTo: messageId, references: [...references, messageId] },
    files,
  };
}

/** The new part of a mail's text: the plain-text body, else its HTML as text, without quotes. */
export function bodyOf(mail: Pick<ParsedMail, "text" | "html">): string {
  if (mail.text && mail.text.trim() !== "") return stripQuoted(mail.text);
  if (typeof mail.html === "string") return stripQuoted(htmlText(mail.html));
  return "";
}

function htmlText(html: string): string {
  const unquoted = html
    .replace(/<blockquote[\s\S]*?<\/blockquote>/gi, "")
    .replace(/<div[^>]*class="[^"]*(gmail_quote|moz-cite-prefix)[^"]*"[\s\S]*$/i, "");
  return convert(unquoted, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
      { selector: "img", format: "skip" },
    ],
  });
}

/** Cuts the quoted original and the signature off a plain-text reply. */
export function stripQuoted(text: string): string {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line === "-- " || line === "--") break; // the signature separator
    if (/^-{2,}\s*(Original Message|Forwarded message)\s*-{2,}/i.test(line.trim())) break;
    if (/^_{10,}$/.test(line.trim()) && /^(From|De|Von):/i.test(lines[i + 1]?.trim() ?? "")) break;
    // "On Tue, 1 Dec 2026, Min <min@example.com> wrote:", possibly wrapped over two lines.
    const two = `${line} ${lines[i + 1] ?? ""}`.trim();
    if (/^On\b.*\bwrote:$/.test(line.trim()) || (/^On\b/.test(line.trim()) && /\bwrote:$/.test(two))) {
      if (lines.slice(i + 1).some((l) => l.startsWith(">"))) break;
    }
    if (line.startsWith(">")) continue;
    out.push(line);
  }
  return out.join("\n").trim();
}
