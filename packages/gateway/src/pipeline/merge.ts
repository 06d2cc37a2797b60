// Multi-user chats (SPEC H2): messages that wait while a turn runs, or arrive together, become
// one user turn. Each line carries its speaker's name when more than one person is in the chat,
// so the model never sees consecutive user turns and always knows who said what.
export interface Spoken {
  userName: string;
  text: string;
}

export function mergeSpoken(items: readonly Spoken[], group: boolean): string {
  if (items.length === 0) return "";
  const speakers = new Set(items.map((i) => i.userName));
  if (!group && speakers.size === 1) return items.map((i) => i.text).join("\n");
  return items.map((i) => `[${i.userName}] ${i.text}`).join("\n");
}
