import { describe, expect, it } from "vitest";
import { normaliseWebhook } from "./normalise.js";

const body = (value: Record<string, unknown>) => ({
  object: "whatsapp_business_account",
  entry: [{ changes: [{ field: "messages", value: { metadata: { phone_number_id: "1111" }, ...value } }] }],
});

describe("WhatsApp webhook bodies", () => {
  it("reads a text message with the sender's name and timestamp", () => {
    const [m] = normaliseWebhook(
      body({
        contacts: [{ wa_id: "821012345678", profile: { name: "Min" } }],
        messages: [
          {
            from: "821012345678",
            id: "wamid.A",
            timestamp: "1700000000",
            type: "text",
            text: { body: "hi" },
          },
        ],
      }),
      "1111",
    );
    expect(m?.msg).toMatchObject({
      chatType: "dm",
      chatId: "821012345678",
      userName: "Min (+821012345678)",
      text: "hi",
      messageId: "wamid.A",
    });
    expect(m?.timestamp).toBe(1700000000);
  });

  it("skips statuses, other numbers' messages and malformed senders; names unread types", () => {
    expect(normaliseWebhook(body({ statuses: [{ id: "wamid.A", status: "read" }] }), "1111")).toEqual([]);
    const msg = { from: "821012345678", id: "wamid.B", timestamp: "1", type: "text", text: { body: "x" } };
    expect(normaliseWebhook(body({ messages: [msg] }), "2222")).toEqual([]);
    expect(normaliseWebhook(body({ messages: [{ ...msg, from: "+82 10" }] }), "1111")).toEqual([]);
    const [sticker] = normaliseWebhook(
      body({ messages: [{ ...msg, type: "sticker", text: undefined }] }),
      "1111",
    );
    expect(sticker?.msg.text).toBe("[a sticker message, which this gateway does not read]");
    expect(normaliseWebhook({ nonsense: true }, "1111")).toEqual([]);
  });

  it("a voice note is an audio attachment with its media id", () => {
    const [v] = normaliseWebhook(
      body({
        messages: [
          {
            from: "821012345678",
            id: "wamid.C",
            timestamp: "1",
            type: "audio",
            audio: { id: "555", voice: true },
          },
        ],
      }),
      "1111",
    );
    expect(v?.msg.attachments).toEqual([
      { kind: "audio", name: "voice-wamid.C.ogg".replace("wamid.C", "wamid.C".slice(-8)) },
    ]);
    expect(v?.media).toEqual(["555"]);
  });
});
