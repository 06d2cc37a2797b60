// A reader that stops early (`iris sessions list | head -1`) closes the pipe: that is a normal end
// for a command-line tool, not a crash, so it ends quietly instead of printing a Node stack trace.
function quietOnEpipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
}

export function endQuietlyOnClosedPipes(): void {
  quietOnEpipe(process.stdout);
  quietOnEpipe(process.stderr);
}
