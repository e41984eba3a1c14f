import { describe, expect, it } from "vitest";
import { ArchiveError, countNewlines, frame, readFrames, type Frame } from "./archive-format";

async function collect(chunks: Buffer[]): Promise<Frame[]> {
  const frames: Frame[] = [];
  for await (const next of readFrames(
    (async function* () {
      yield* chunks;
    })(),
  ))
    frames.push(next);
  return frames;
}

describe("archive frames", () => {
  it("reads back what was written, whatever the chunking", async () => {
    const bytes = Buffer.concat([
      frame("H", { a: 1 }),
      frame("T", { name: "t" }),
      frame("D", Buffer.from("1\tx\n2\ty\n")),
      frame("E", { name: "t" }),
      frame("Z", {}),
    ]);
    for (const size of [1, 3, 7, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const frames = await collect(chunks);
      expect(frames.map((f) => f.kind)).toEqual(["H", "T", "D", "E", "Z"]);
      expect(frames[2]?.payload.toString()).toBe("1\tx\n2\ty\n");
      expect(JSON.parse(frames[0]?.payload.toString() ?? "")).toEqual({ a: 1 });
    }
  });

  it("refuses a cut-short archive and bytes that are not frames", async () => {
    const whole = frame("D", Buffer.from("abcdef"));
    await expect(collect([whole.subarray(0, whole.length - 1)])).rejects.toThrow(ArchiveError);
    await expect(collect([Buffer.from("PK\u0003\u0004 not ours")])).rejects.toThrow(/not a Groundwork backup/);
  });

  it("counts rows of COPY text by their newlines", () => {
    expect(countNewlines(Buffer.from(""))).toBe(0);
    expect(countNewlines(Buffer.from("a\\nb\n"))).toBe(1); // an escaped newline inside a value is not a row
    expect(countNewlines(Buffer.from("1\n2\n3\n"))).toBe(3);
  });
});
