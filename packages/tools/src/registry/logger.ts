// Where the tools package reports problems that must not stop anything (a tool module that fails
// to load, a name collision, an unknown toolset). stdout belongs to the user, so the default
// writes to stderr; front ends and tests pass their own.

export interface ToolLogger {
  warn(message: string): void;
}

export const stderrLogger: ToolLogger = {
  warn(message) {
    process.stderr.write(`[iris tools] ${message}\n`);
  },
};
