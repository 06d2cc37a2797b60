// A WhatsApp Cloud API webhook body → the gateway's InboundMessages (SPEC G1). Only messages to
// this phone number id are taken; statuses (sent, delivered, read) are not messages. Text,
// images, documents and audio (voice notes) are read; other types are skipped with a note.
import type { Attachment, InboundMessage } from "../../message.js";

export const PLATFORM = "whatsapp";

interface WaMessage {
  from?: unknown;
  id?: unknown;
  timestamp?: unknown;
  type?: unknown;
  text?: { body?: unknown };
  image?: { id?: unknown; caption?: unknown; mime_type?: unknown };
  document?: { id?: unknown; caption?: unknown; filename?: unknown };
  audio?: { id?: unknown; voice?: unknown };
}

export interface WaInbound {
  msg: InboundMessage;
  /** When the user wrote (seconds): the 24-hour window runs from it. */
  timestamp: number;
  /** Media ids to fetch, by attachment index. */
  media: (string | undefined)[];
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

export function normaliseWebhook(body: unknown, phoneNumberId: string): WaInbound[] {
  const out: WaInbound[] = [];
  const entries = (body as { entry?: unknown })?.entry;
  if (!Array.isArray(entries)) return out;
  for (const e of entries as { changes?: unknown }[]) {
    if (!Array.isArray(e?.changes)) continue;
    for (const c of e.changes as { field?: unknown; value?: Record<string, unknown> }[]) {
      const v = c?.value;
      if (c?.field !== "messages" || !v) continue;
      if (str((v.metadata as { phone_number_id?: unknown } | undefined)?.phone_number_id) !== phoneNumberId)
        continue;
      const contacts = Array.isArray(v.contacts)
        ? (v.contacts as { wa_id?: unknown; profile?: { name?: unknown } }[])
        : [];
      for (const m of Array.isArray(v.messages) ? (v.messages as WaMessage[]) : []) {
        const from = str(m.from);
        const id = str(m.id);
        if (!from || !/^\d+$/.test(from) || !id) continue;
        const name = str(contacts.find((x) => x.wa_id === from)?.profile?.name);
        const attachments: Attachment[] = [];
        const media: (string | undefined)[] = [];
        let text = "";
        if (m.type === "text") text = str(m.text?.body) ?? "";
        else if (m.type === "image" && str(m.image?.id)) {
          text = str(m.image?.caption) ?? "";
          attachments.push({ kind: "image", name: `image-${id.slice(-8)}.jpg` });
          media.push(str(m.image?.id));
        } else if (m.type === "document" && str(m.document?.id)) {
          text = str(m.document?.caption) ?? "";
          attachments.push({ kind: "file", name: str(m.document?.filename) ?? `document-${id.slice(-8)}` });
          media.push(str(m.document?.id));
        } else if (m.type === "audio" && str(m.audio?.id)) {
          attachments.push({ kind: "audio", name: `voice-${id.slice(-8)}.ogg` });
          media.push(str(m.audio?.id));
        } else text = `[a ${String(m.type)} message, which this gateway does not read]`;
        if (text === "" && attachments.length === 0) continue;
        out.push({
          msg: {
            platform: PLATFORM,
            chatType: "dm",
            chatId: from,
            userId: from,
            userName: name ? `${name} (+${from})` : `+${from}`,
            handle: from,
            text,
            attachments,
            messageId: id,
          },
          timestamp: Number(str(m.timestamp) ?? 0),
          media,
        });
      }
    }
  }
  return out;
}
