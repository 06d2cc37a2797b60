// `/branch [N]` and `/edit N TEXT` in the chat (SPEC D3): the store's branch API, through the
// session (Session.stored). The old branch stays in the store.

import type { Session } from "@iris/host";

export async function branchCommand(
  cmd: "/branch" | "/edit",
  words: string[],
  session: Session,
  out: { write(s: string): unknown },
): Promise<boolean | { send: string }> {
  const [first, ...text] = words;
  if (cmd === "/branch" && first === undefined) {
    const turns = await session.stored.userTurns();
    if (!turns.length) out.write("no messages yet\n");
    for (const t of turns) out.write(`  ${String(t.number).padStart(3)}  ${t.preview}\n`);
    return true;
  }
  const n = Number(first);
  if (cmd === "/edit" && (!first || !text.length)) {
    out.write("usage: /edit N TEXT (/branch lists the numbers)\n");
    return true;
  }
  const moved = await session.stored.branchBefore(n);
  if (!moved.ok) {
    out.write(`! ${moved.error}\n`);
    return true;
  }
  if (cmd === "/edit") return { send: text.join(" ") };
  out.write(
    `back before message ${n} ("${moved.turn.preview}"): your next message replaces it on a new branch\n`,
  );
  return true;
}
