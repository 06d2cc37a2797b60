// Images from the CLI (SPEC K6): `-p "… @photo.png"` and `--image FILE` send the PNG with the
// prompt, found in the upstream request in each API mode's shape; a large one is shrunk; a file
// that is not an image is a usage error (exit 2) and nothing is sent.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { solidPng } from "@iris/testkit";
import { describe, expect, it } from "vitest";
import { fakeHome, MODES, routeArgs, runIris } from "./helpers.js";

describe("images from the CLI", () => {
  it.each(MODES)("%s: @photo.png and --image reach the model as images", async (mode) => {
    const { fake, home, work, close } = await fakeHome(true);
    try {
      const small = solidPng(20, 10, [0, 128, 255]);
      writeFileSync(join(work, "photo.png"), small);
      writeFileSync(join(work, "big.png"), solidPng(2400, 600));
      fake.enqueue({ text: "Two blue-ish images." });
      const r = await runIris(
        ["-p", "What is in @photo.png?", "--image", "big.png", ...routeArgs(fake.baseUrl, mode)],
        { env: { IRIS_HOME: home.home }, cwd: work },
      );
      expect(r.stdout).toContain("Two blue-ish images.");
      expect(r.stderr).toContain("attached photo.png (20×10 image)");
      expect(r.stderr).toContain("attached big.png (1568×392 image, resized from 2400×600)");
      const req = fake.requests.at(-1);
      expect(req?.rejected).toBeUndefined();
      const body = JSON.stringify(req?.body);
      const data = small.toString("base64");
      const shape =
        mode === "chat_completions"
          ? `{"type":"image_url","image_url":{"url":"data:image/png;base64,${data}"}}`
          : mode === "anthropic_messages"
            ? `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${data}"}`
            : `{"type":"input_image","image_url":"data:image/png;base64,${data}"}`;
      expect(body).toContain(shape);
      expect(body.match(/base64,|"base64"/g)?.length).toBe(2);
    } finally {
      await close();
    }
  });

  it("a file that is not an image is a usage error and nothing is sent", async () => {
    const { fake, home, work, close } = await fakeHome(true);
    try {
      writeFileSync(join(work, "notes.txt"), "hello");
      const r = await runIris(
        ["-p", "look", "--image", "notes.txt", ...routeArgs(fake.baseUrl, "chat_completions")],
        {
          env: { IRIS_HOME: home.home },
          cwd: work,
        },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("iris: notes.txt is not a PNG, JPEG, GIF or WebP image");
      expect(fake.requests.filter((q) => q.apiMode === "chat_completions")).toHaveLength(0);
    } finally {
      await close();
    }
  });
});
