// A PDF → plain text (pdf-parse, loaded on first use). Page breaks become blank lines.
export async function pdfToText(data: Buffer): Promise<{ title: string; text: string; pages: number }> {
  const { PDFParse } = await import("pdf-parse");
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    const result = await parser.getText();
    let title = "";
    try {
      const info = await parser.getInfo();
      const t = (info.info as { Title?: unknown } | undefined)?.Title;
      if (typeof t === "string") title = t.trim();
    } catch {
      // A PDF without an info dictionary still has text.
    }
    return { title, text: result.text.replace(/\n{3,}/g, "\n\n").trim(), pages: result.total };
  } finally {
    await parser.destroy();
  }
}
