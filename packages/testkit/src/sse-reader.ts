// Reads a server-sent event stream the way a browser's EventSource does (the fields a client
// resumes by included): one frame per blank line, comments skipped, `data:` lines joined.

export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

/** The frames of `res`'s body as they arrive; ends with the body. */
export async function* sseFrames(res: Response): AsyncGenerator<SseFrame> {
  if (!res.body) return;
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, "\n");
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = parseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (frame) yield frame;
      end = buffer.indexOf("\n\n");
    }
  }
}

function parseFrame(text: string): SseFrame | undefined {
  const frame: SseFrame = { data: "" };
  const data: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "id") frame.id = value;
    else if (field === "event") frame.event = value;
  }
  if (!data.length && frame.id === undefined && frame.event === undefined) return undefined;
  frame.data = data.join("\n");
  return frame;
}
