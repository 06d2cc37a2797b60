// Commands an unknown program or a wrapper may run from its arguments (T4): `strace -f rm -rf ~`,
// `/lib64/ld-linux-x86-64.so.2 /bin/rm -rf ~`, `watch -n1 reboot`, `parallel mkfs.ext4 ::: /dev/sda`.
// How such a program reads its arguments is not in the table, so every tail of them that starts
// with a word is judged against the hard blocks as a command: an unknown program in front of a
// hard block does not make it runnable in approval mode `off`.
import { WRAPPER_NAMES } from "./concerns.js";
import { type Command, type ParsedCommand, toCommand } from "./parse.js";
import { PROGRAMS } from "./proof.js";

/** Commands whose arguments the table does not describe: unknown programs and wrappers. */
function opaque(parsed: ParsedCommand): Command[] {
  // A known program reads its arguments as its entry says (docker and kubectl run them elsewhere).
  return parsed.commands.filter((c) => c.name !== "" && (!PROGRAMS[c.name] || WRAPPER_NAMES.has(c.name)));
}

/**
 * Arguments of unknown programs and wrappers that read like a command line (`watch 'rm -rf ~'`,
 * `vim -c '!reboot'`, `flock /tmp/l -c 'mkfs.ext4 /dev/sda'`): judged as typed, for hard blocks.
 */
export function argumentScripts(parsed: ParsedCommand): string[] {
  return opaque(parsed)
    .flatMap((c) => c.args)
    .filter((a) => /\S\s+\S/.test(a))
    .map((a) => a.replace(/^[+:]?!/, ""))
    .slice(0, 8);
}

export function argumentTails(parsed: ParsedCommand): ParsedCommand {
  const tails: Command[] = [];
  for (const c of opaque(parsed)) {
    c.args.forEach((word, i) => {
      if (word === "" || word.startsWith("-")) return;
      const tail = toCommand(
        {
          words: c.args.slice(i),
          redirects: [],
          pipeline: c.pipeline,
          pipePos: c.pipePos,
          substitutions: [],
          heredocs: [],
        },
        [...c.via, c.name],
      );
      if (c.cwd !== undefined) tail.cwd = c.cwd;
      tails.push(tail);
    });
  }
  return { raw: "", texts: [], commands: tails, floods: [] };
}
