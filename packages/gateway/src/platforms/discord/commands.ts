// The chat's commands as Discord slash commands (SPEC G1): registered with the application at
// start (a bulk overwrite, so a removed command goes too), and a use of one as the command's
// text ("/model gpt-5") in the channel it was used in.
import { CHAT_COMMANDS } from "@iris/host";
import type { ChatInputCommandInteraction } from "discord.js";
import type { InboundMessage } from "../../message.js";
import { PLATFORM, placeOf } from "./normalise.js";

const ARGS = "args";

/** CHAT_INPUT commands for PUT /applications/{id}/commands. */
export function slashCommands(): object[] {
  return CHAT_COMMANDS.filter((c) => c.surfaces.includes("gateway")).map((c) => ({
    name: c.name.slice(1).toLowerCase(),
    description: c.help.slice(0, 100),
    type: 1,
    // Every command takes its arguments as one optional text (as typed after the name).
    options: [{ type: 3, name: ARGS, description: (c.usage ?? "arguments").slice(0, 100), required: false }],
  }));
}

export function normaliseCommand(i: ChatInputCommandInteraction): InboundMessage {
  const args = i.options.getString(ARGS)?.trim();
  return {
    platform: PLATFORM,
    chatType: i.guildId ? "group" : "dm",
    ...placeOf(i.channel, i.channelId),
    userId: i.user.id,
    userName: i.user.globalName ?? i.user.username,
    handle: i.user.id,
    text: `/${i.commandName}${args ? ` ${args}` : ""}`,
    attachments: [],
    messageId: `ix:${i.id}`,
    mentionsBot: true,
  };
}
