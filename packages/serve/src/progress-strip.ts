// A chat UI stores the streamed text as the assistant's message and sends it back as history, so
// the tool-progress blocks Iris streamed (progress.ts) would reach the model as if the model had
// written them. They are Iris's own, not the model's: they are cut from the client's assistant
// messages before the model sees them (SPEC E3). Only blocks in Iris's exact shape are cut —
// `<details>` with a `🔧` summary and nothing but the done mark inside — so a model's own
// <details> stays; a block cut off at its end (a stopped stream) goes too.
const CLOSED_BLOCK =
  /\n?<details>\s*<summary>🔧[^\n]*?<\/summary>\s*(?:✓ done|✗ failed)?\s*<\/details>[ \t]*\n*/gu;
const OPEN_BLOCK = /\n?<details>\s*<summary>🔧[^\n]*?<\/summary>\s*$/u;

export function withoutProgressBlocks(text: string): string {
  if (!text.includes("<summary>🔧")) return text;
  return text
    .replace(CLOSED_BLOCK, "\n")
    .replace(OPEN_BLOCK, "")
    .replace(/^\n+/, "")
    .replace(/\n{3,}/g, "\n\n");
}
