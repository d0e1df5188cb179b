/** The audio containers the server accepts, recognised by their first bytes. */
export type SniffedAudio = { contentType: string; extension: string };

/** How many leading bytes `sniffAudio` needs to decide. */
export const SNIFF_BYTES = 12;

const MP3: SniffedAudio = { contentType: "audio/mpeg", extension: "mp3" };
const WEBM: SniffedAudio = { contentType: "audio/webm", extension: "webm" };
const OGG: SniffedAudio = { contentType: "audio/ogg", extension: "ogg" };
const WAV: SniffedAudio = { contentType: "audio/wav", extension: "wav" };
const MP4: SniffedAudio = { contentType: "audio/mp4", extension: "m4a" };

function ascii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) {
    if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * An MPEG audio frame header: 11 sync bits, then a valid version, layer, bitrate and sample rate.
 * Layer bits 00 are refused, which keeps AAC in ADTS (same sync word) out.
 */
function isMpegFrame(bytes: Uint8Array): boolean {
  const [b0, b1, b2] = bytes;
  if (b0 === undefined || b1 === undefined || b2 === undefined) return false;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  const bitrate = (b2 >> 4) & 0b1111;
  const sampleRate = (b2 >> 2) & 0b11;
  return version !== 0b01 && layer !== 0b00 && bitrate !== 0b1111 && sampleRate !== 0b11;
}

/** Identifies audio by its content (never by name or declared type); null when not accepted. */
export function sniffAudio(head: Uint8Array): SniffedAudio | null {
  if (ascii(head, 0, "ID3") || isMpegFrame(head)) return MP3;
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return WEBM;
  if (ascii(head, 0, "OggS")) return OGG;
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WAVE")) return WAV;
  if (ascii(head, 4, "ftyp")) return MP4;
  return null;
}
