// `/rewind [N]`: the conversation back to before user message N (default: the last one) and the
// files that write_file and patch changed since then back as they were. The session finds them in
// the effect receipts (each such call keeps the files it writes as they were right before it ran),
// so a resumed session rewinds what an earlier process changed too. Files a shell command changed
// have no snapshot and are not restored.
import type { Session } from "@iris/host";

type Out = { write(s: string): unknown };

export async function rewindCommand(session: Session, arg: string, out: Out): Promise<void> {
  const n = arg ? Number(arg) : undefined;
  if (n !== undefined && !Number.isInteger(n)) {
    out.write(`! /rewind takes a message number (/branch lists them), not ${arg}\n`);
    return;
  }
  const done = await session.rewind(n);
  if ("error" in done) {
    out.write(done.error === "nothing to rewind yet" ? `${done.error}\n` : `! ${done.error}\n`);
    return;
  }
  out.write(`rewound to before message ${done.turn.number} ("${done.turn.preview}")\n`);
  for (const f of done.restored) out.write(`  restored ${f}\n`);
  for (const f of done.removed) out.write(`  removed ${f} (the turn created it)\n`);
  for (const f of done.failed) out.write(`! not restored: ${f}\n`);
  if (!done.restored.length && !done.removed.length && !done.failed.length)
    out.write("  no file was edited since then\n");
  out.write("  (files that shell commands changed are not restored)\n");
}
