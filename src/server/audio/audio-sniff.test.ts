import { describe, expect, it } from "vitest";
import { sniffAudio } from "./audio-sniff";

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
