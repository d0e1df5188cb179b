/** Audio type to file extension (spec section 5). */
const EXTENSIONS: Record<string, string> = {
  webm: "webm",
  mp4: "m4a",
  "x-m4a": "m4a",
  mpeg: "mp3",
  ogg: "ogg",
  wav: "wav",
};

export function extensionForAudioType(mimeType: string): string {
  const subtype =
    mimeType
      .split(";")[0]
      ?.trim()
      .toLowerCase()
      .replace(/^audio\//, "") ?? "";
  return EXTENSIONS[subtype] ?? "webm";
}
