import { solidPng } from "@iris/testkit";
import { describe, expect, it } from "vitest";
import { ImageError, MAX_IMAGE_EDGE, prepareImage, sniffImage } from "./prepare.js";

describe("prepareImage", () => {
  it("keeps a small PNG as it is", async () => {
    const png = solidPng(40, 30);
    const out = await prepareImage(png);
    expect(out).toMatchObject({ type: "image", mediaType: "image/png", width: 40, height: 30 });
    expect(out.data).toBe(png.toString("base64"));
    expect(out.resizedFrom).toBeUndefined();
  });

  it("shrinks a large one to the providers' long-edge limit, keeping its aspect", async () => {
    const out = await prepareImage(solidPng(3000, 1500));
    expect(out.width).toBe(MAX_IMAGE_EDGE);
    expect(out.height).toBe(MAX_IMAGE_EDGE / 2);
    expect(out.resizedFrom).toMatchObject({ width: 3000, height: 1500 });
    expect(sniffImage(Buffer.from(out.data, "base64"))).toBe(out.mediaType);
  });

  it("refuses what is not an image, naming it", async () => {
    await expect(prepareImage(Buffer.from("hello"), "notes.txt")).rejects.toThrow(
      new ImageError("notes.txt is not a PNG, JPEG, GIF or WebP image"),
    );
  });
});
