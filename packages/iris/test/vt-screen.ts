// A small terminal emulator for tests: replays what a program wrote to its terminal and returns
// the rows a user would see. It knows what the chat and readline send — printable text with
// autowrap, CR, LF, BS, TAB, cursor moves (CSI A B C D G H), erase in line (K) and display (J);
// colours and modes are ignored, and so is what is drawn between ESC 7 and ESC 8 (the status line).
// Every character is one column wide (tests use ASCII text).
// Rows are not limited to the window's height: nothing scrolls away.

export function renderScreen(output: string, columns = 100): string[] {
  const rows: string[][] = [[]];
  let r = 0;
  let c = 0;
  /** The cursor sits past the last column: the next character starts a new row (xterm). */
  let pendingWrap = false;
  const row = (i: number) => {
    while (rows.length <= i) rows.push([]);
    return rows[i] as string[];
  };
  const put = (ch: string) => {
    if (pendingWrap) {
      r += 1;
      c = 0;
      pendingWrap = false;
    }
    const line = row(r);
    while (line.length < c) line.push(" ");
    line[c] = ch;
    if (c === columns - 1) pendingWrap = true;
    else c += 1;
  };
  for (let i = 0; i < output.length; i++) {
    const ch = output[i] as string;
    // Drawn with the cursor saved and restored (the status line on the last row, ESC 7 … ESC 8):
    // outside the scrolling text these rows hold, so skipped.
    if (output.startsWith("\u001b7", i)) {
      const end = output.indexOf("\u001b8", i);
      if (end >= 0) {
        i = end + 1;
        continue;
      }
    }
    if (ch === "\u001b") {
      const csi = /^\u001b\[([?>]?)([0-9;]*)([ -/]*)([@-~])/.exec(output.slice(i, i + 32));
      if (!csi) {
        i += 1; // a two-character escape (ESC 7, ESC =, …)
        continue;
      }
      i += csi[0].length - 1;
      if (csi[1]) continue; // private modes (bracketed paste, cursor visibility)
      const n = Number((csi[2] ?? "").split(";")[0] || "0");
      const count = Math.max(1, n);
      pendingWrap = false;
      switch (csi[4]) {
        case "A":
          r = Math.max(0, r - count);
          break;
        case "B":
          r += count;
          break;
        case "C":
          c = Math.min(columns - 1, c + count);
          break;
        case "D":
          c = Math.max(0, c - count);
          break;
        case "G":
          c = Math.min(columns - 1, count - 1);
          break;
        case "H":
        case "f": {
          const [y, x] = (csi[2] ?? "").split(";").map((v) => Math.max(1, Number(v || "1")));
          r = (y ?? 1) - 1;
          c = Math.min(columns - 1, (x ?? 1) - 1);
          break;
        }
        case "K": {
          const line = row(r);
          if (n === 0) line.splice(c);
          else if (n === 1) for (let k = 0; k <= c && k < line.length; k++) line[k] = " ";
          else line.length = 0;
          break;
        }
        case "J":
          if (n === 0) {
            row(r).splice(c);
            rows.splice(r + 1);
          } else if (n === 2 || n === 3) for (const line of rows) line.length = 0;
          break;
      }
      continue;
    }
    if (ch === "\r") {
      c = 0;
      pendingWrap = false;
    } else if (ch === "\n") {
      r += 1;
      pendingWrap = false;
    } else if (ch === "\b") {
      c = Math.max(0, c - 1);
      pendingWrap = false;
    } else if (ch === "\t") {
      c = Math.min(columns - 1, (Math.floor(c / 8) + 1) * 8);
    } else if (ch >= " ") put(ch);
  }
  return rows.map((line) => line.join("").trimEnd());
}
