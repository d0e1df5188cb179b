import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type AudioInspection, inspectAudio, sniffAudio } from "./audio-sniff";

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(
    values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])),
  );

describe("sniffAudio", () => {
  it.each([
    ["ID3 tagged MP3", bytes("ID3", 4, 0, 0, 0, 0, 0, 0x23), "audio/mpeg"],
    ["bare MPEG-1 layer 3 frame", bytes(0xff, 0xfb, 0x90, 0x64), "audio/mpeg"],
    ["MPEG-2 layer 3 frame", bytes(0xff, 0xf3, 0x48, 0xc4), "audio/mpeg"],
    ["WebM / Matroska", bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42), "audio/webm"],
    ["Ogg", bytes("OggS", 0, 2), "audio/ogg"],
    ["WAV", bytes("RIFF", 0x24, 0, 0, 0, "WAVE"), "audio/wav"],
    ["M4A", bytes(0, 0, 0, 0x1c, "ftypM4A "), "audio/mp4"],
  ])("recognises %s", (_name, head, type) => {
    expect(sniffAudio(head)?.contentType).toBe(type);
  });

  it.each([
    ["a PDF", bytes("%PDF-1.4")],
    ["a PNG", bytes(0x89, "PNG", 0x0d, 0x0a)],
    ["AVI (RIFF but not WAVE)", bytes("RIFF", 0, 0, 0, 0, "AVI ")],
    ["AAC in ADTS (layer bits 00)", bytes(0xff, 0xf1, 0x50, 0x80)],
    ["a frame with a bad bitrate", bytes(0xff, 0xfb, 0xf0, 0x00)],
    ["nothing", bytes()],
    ["text", bytes("hello world!")],
  ])("refuses %s", (_name, head) => {
    expect(sniffAudio(head)).toBeNull();
  });
});

const FIXTURES = path.join(import.meta.dirname, "../test/fixtures");
const load = (name: string) => readFileSync(path.join(FIXTURES, name));

/** Inspects `file` as checkedAudio does: more of the head while the inspection asks for it. */
function inspectWhole(file: Uint8Array): AudioInspection {
  let size = Math.min(file.length, 1024);
  for (;;) {
    const result = inspectAudio(file.subarray(0, size), size >= file.length);
    if (result.status !== "need") return result;
    expect(result.bytes).toBeGreaterThan(size);
    size = Math.min(file.length, result.bytes);
  }
}

/** `head` followed by filler up to `total` bytes. */
const padded = (head: Uint8Array, total = 2048, fill = 0x41) =>
  Buffer.concat([Buffer.from(head), Buffer.alloc(Math.max(0, total - head.length), fill)]);

describe("inspectAudio", () => {
  it.each([
    ["tone.mp3", "audio/mpeg"],
    ["tone-noid3.mp3", "audio/mpeg"],
    ["tone.webm", "audio/webm"],
    ["chrome-recorder.webm", "audio/webm"],
    ["tone.ogg", "audio/ogg"],
    ["tone.wav", "audio/wav"],
    ["tone.m4a", "audio/mp4"],
  ])("accepts the real recording %s", (name, type) => {
    const result = inspectWhole(load(name));
    expect(result).toEqual({ status: "ok", audio: expect.objectContaining({ contentType: type }) });
  });

  it("asks for more bytes while a structure is incomplete, instead of deciding early", () => {
    const mp3 = load("tone.mp3");
    expect(inspectAudio(mp3.subarray(0, 20), false)).toEqual({
      status: "need",
      bytes: expect.any(Number),
    });
  });

  it.each([
    ["only the bytes 'ID3'", bytes("ID3")],
    ["an ID3 tag followed by no MPEG frame", padded(bytes("ID3", 4, 0, 0, 0, 0, 0, 0x23))],
    [
      "an ID3 tag claiming more bytes than the file has",
      padded(bytes("ID3", 4, 0, 0, 0x7f, 0x7f, 0x7f), 1500),
    ],
    [
      "a broken ID3 header (size bytes over 0x7f)",
      padded(bytes("ID3", 4, 0, 0, 0xff, 0xff, 0xff, 0xff)),
    ],
    ["a lone MPEG frame header followed by text", padded(bytes(0xff, 0xfb, 0x90, 0x64))],
    ["the WebM magic followed by text", padded(bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42))],
    ["a WebM header with no segment", padded(load("tone.webm").subarray(0, 0x24))],
    [
      "a WebM header of another document type",
      padded(bytes(0x1a, 0x45, 0xdf, 0xa3, 0x87, 0x42, 0x82, 0x84, "xlsx")),
    ],
    ["the Ogg magic followed by text", padded(bytes("OggS", 0, 2))],
    [
      "an Ogg page with a wrong checksum",
      (() => {
        const ogg = Buffer.from(load("tone.ogg"));
        ogg[22] = (ogg[22] ?? 0) ^ 0xff;
        return ogg;
      })(),
    ],
    ["a RIFF WAVE header with no chunks", padded(bytes("RIFF", 0x24, 0, 0, 0, "WAVE"))],
    [
      "a WAV whose data comes before its format",
      padded(bytes("RIFF", 0x24, 0, 0, 0, "WAVE", "data", 4, 0, 0, 0, 1, 2, 3, 4)),
    ],
    ["the M4A magic followed by text", padded(bytes(0, 0, 0, 0x1c, "ftypM4A "))],
    [
      "an M4A with a box of size 3 after ftyp",
      padded(Buffer.concat([load("tone.m4a").subarray(0, 0x1c), bytes(0, 0, 0, 3, "mdat")])),
    ],
  ])("refuses %s", (_name, file) => {
    const result = inspectWhole(file);
    expect(result.status).toBe("invalid");
  });

  it("explains what is wrong", () => {
    const result = inspectWhole(bytes("ID3"));
    expect(result).toEqual({ status: "invalid", problem: expect.stringMatching(/\w/) });
  });
});
