// A signal-cli `receive` event → the gateway's InboundMessage (SPEC G1). A dataMessage is a
// user's DM or group message; a syncMessage.sentMessage is the account's owner writing from a
// linked device (their phone): taken in a group (Hermes #23064 dropped those) or in "Note to
// Self", never in the owner's own DMs with other people. The message id is author:timestamp
// (Signal's own identity of a message), so a repeated event is claimed once by the runner.
import { z } from "zod";
import type { Attachment, InboundMessage } from "../../message.js";

export const PLATFORM = "signal";
/** A group's chat id: its signal-cli group id behind this prefix (a number never starts so). */
export const GROUP_PREFIX = "group.";

const attachment = z.looseObject({
  contentType: z.string().default("application/octet-stream"),
  filename: z.string().nullish(),
  id: z.string(),
  size: z.number().optional(),
  voiceNote: z.boolean().optional(),
});
const group = z.looseObject({ groupId: z.string() }).nullish();
const body = {
  timestamp: z.number(),
  message: z.string().nullish(),
  groupInfo: group,
  attachments: z.array(attachment).nullish(),
  mentions: z.array(z.looseObject({ uuid: z.string().nullish(), number: z.string().nullish() })).nullish(),
};
const event = z.looseObject({
  envelope: z.looseObject({
    source: z.string().nullish(),
    sourceNumber: z.string().nullish(),
    sourceUuid: z.string().nullish(),
    sourceName: z.string().nullish(),
    timestamp: z.number(),
    dataMessage: z.looseObject(body).nullish(),
    syncMessage: z
      .looseObject({
        sentMessage: z
          .looseObject({
            ...body,
            destinationNumber: z.string().nullish(),
            destinationUuid: z.string().nullish(),
          })
          .nullish(),
      })
      .nullish(),
  }),
});

export interface SignalInbound {
  msg: InboundMessage;
  /** Where the reaction and attachment downloads go: one recipient, or a group. */
  conversation: { recipient: string[] } | { groupId: string };
  author: string;
  timestamp: number;
  /** Attachment ids by attachment index. */
  files: { id: string; contentType: string }[];
  /** From the owner's linked device (no reaction on their own message). */
  fromOwner: boolean;
}

const extension = (type: string) =>
  (type.split("/")[1] ?? "bin").split(";")[0]?.replace(/[^\w]/g, "") || "bin";

export function normaliseEvent(
  data: unknown,
  self: { account: string; uuid?: string },
): SignalInbound | undefined {
  const parsed = event.safeParse(data);
  if (!parsed.success) return undefined;
  const env = parsed.data.envelope;
  const author = env.sourceNumber ?? env.source ?? env.sourceUuid;
  if (!author) return undefined;
  const fromOwner = author === self.account || (!!self.uuid && env.sourceUuid === self.uuid);
  let m = env.dataMessage;
  if (fromOwner) {
    const sent = env.syncMessage?.sentMessage;
    if (!sent) return undefined;
    const noteToSelf =
      sent.destinationNumber === self.account || (!!self.uuid && sent.destinationUuid === self.uuid);
    if (!sent.groupInfo && !noteToSelf) return undefined;
    m = sent;
  }
  if (!m) return undefined; // receipts, typing, calls
  const groupId = m.groupInfo?.groupId;
  const attachments: Attachment[] = [];
  const files: { id: string; contentType: string }[] = [];
  for (const a of m.attachments ?? []) {
    const audio = a.voiceNote === true || a.contentType.startsWith("audio/");
    const kind = a.contentType.startsWith("image/") ? "image" : audio ? "audio" : "file";
    attachments.push({ kind, name: a.filename || `${kind}-${a.id.slice(0, 8)}.${extension(a.contentType)}` });
    files.push({ id: a.id, contentType: a.contentType });
  }
  const text = (m.message ?? "").replace(/\uFFFC/g, "@you").trim();
  if (text === "" && attachments.length === 0) return undefined;
  const mentionsBot = (m.mentions ?? []).some(
    (x) => x.number === self.account || (!!self.uuid && x.uuid === self.uuid),
  );
  const userId = env.sourceNumber ?? env.sourceUuid ?? author;
  return {
    msg: {
      platform: PLATFORM,
      chatType: groupId ? "group" : "dm",
      chatId: groupId ? `${GROUP_PREFIX}${groupId}` : userId,
      userId,
      userName: env.sourceName ? `${env.sourceName} (${userId})` : userId,
      // The uuid is Signal's own id of the account: an allowlist may name either.
      handle: env.sourceUuid ?? userId,
      text,
      attachments,
      messageId: `${env.sourceUuid ?? author}:${m.timestamp}`,
      ...(mentionsBot ? { mentionsBot: true } : {}),
    },
    conversation: groupId ? { groupId } : { recipient: [userId] },
    author: env.sourceUuid ?? author,
    timestamp: m.timestamp,
    files,
    fromOwner,
  };
}
