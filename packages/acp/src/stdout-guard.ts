// stdout belongs to the protocol (SPEC E2). Before anything else runs, every other writer —
// console.log, a dependency's banner, a stray process.stdout.write — is sent to stderr, and the
// protocol gets the one private handle on the real stdout.
import { Writable } from "node:stream";

export function claimStdout(
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr,
): Writable {
  const realWrite = stdout.write.bind(stdout) as (
    chunk: Uint8Array | string,
    cb?: (err?: Error | null) => void,
  ) => boolean;
  const toStderr = stderr.write.bind(stderr);
  // The console writes through the stream object's write(), so it follows this too.
  stdout.write = ((...args: Parameters<typeof stderr.write>) => toStderr(...args)) as typeof stdout.write;
  return new Writable({
    write(chunk: Uint8Array, _encoding, callback) {
      realWrite(chunk, (err) => callback(err ?? null));
    },
  });
}
