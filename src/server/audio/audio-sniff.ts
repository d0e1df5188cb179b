/** The audio containers the server accepts, recognised by their first bytes. */
export type SniffedAudio = { contentType: string; extension: string; name: string };

/** How many leading bytes `sniffAudio` needs to decide. */
export const SNIFF_BYTES = 12;

const MP3: SniffedAudio = { contentType: "audio/mpeg", extension: "mp3", name: "MP3" };
const WEBM: SniffedAudio = { contentType: "audio/webm", extension: "webm", name: "WebM" };
const OGG: SniffedAudio = { contentType: "audio/ogg", extension: "ogg", name: "Ogg" };
const WAV: SniffedAudio = { contentType: "audio/wav", extension: "wav", name: "WAV" };
const MP4: SniffedAudio = { contentType: "audio/mp4", extension: "m4a", name: "M4A" };

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

/**
 * The verdict on the first bytes of an upload: audio whose container has a plausible structure,
 * not audio (with the reason), or not decided until the head holds at least `bytes` bytes.
 */
export type AudioInspection =
  | { status: "ok"; audio: SniffedAudio }
  | { status: "invalid"; problem: string }
  | { status: "need"; bytes: number };

/** The furthest into a file `inspectAudio` asks to look (an ID3 tag with cover art can be large). */
export const INSPECT_MAX_BYTES = 1024 * 1024;

type Verdict = true | string | { need: number };

/**
 * Recognises the container by its magic bytes, then walks its first structures: an MP3 needs two
 * consecutive MPEG frames (after any ID3 tag), a WebM an EBML header naming webm or matroska, a
 * Segment and its Tracks, an Ogg a first page with a correct checksum that starts an audio codec, a
 * WAV a format chunk before its data chunk, an M4A well-formed boxes after `ftyp` up to its movie
 * or media data. `ended` says `head` is the whole file, so a structure cut short is invalid.
 */
export function inspectAudio(head: Uint8Array, ended: boolean): AudioInspection {
  const audio = sniffAudio(head);
  if (!audio) {
    if (!ended && head.length < SNIFF_BYTES) return { status: "need", bytes: SNIFF_BYTES };
    return { status: "invalid", problem: "not a supported audio format" };
  }
  const check =
    audio === MP3
      ? checkMp3
      : audio === WEBM
        ? checkWebm
        : audio === OGG
          ? checkOgg
          : audio === WAV
            ? checkWav
            : checkMp4;
  const verdict = check(head);
  if (verdict === true) return { status: "ok", audio };
  if (typeof verdict === "string") return { status: "invalid", problem: verdict };
  if (ended) return { status: "invalid", problem: "the file ends too early" };
  if (verdict.need > INSPECT_MAX_BYTES) {
    return { status: "invalid", problem: "its audio does not start near the beginning" };
  }
  return { status: "need", bytes: Math.max(verdict.need, head.length + 1) };
}

// ---- MP3 --------------------------------------------------------------------------------------

const BITRATES_KBPS = {
  v1l1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
/** By version bits (00 MPEG-2.5, 10 MPEG-2, 11 MPEG-1) and sample-rate bits. */
const SAMPLE_RATES: Record<number, number[]> = {
  0: [11025, 12000, 8000],
  2: [22050, 24000, 16000],
  3: [44100, 48000, 32000],
};

/** The byte length of the MPEG frame at `at`; 0 for a free-format frame; null when none is there. */
function mpegFrameLength(bytes: Uint8Array, at: number): number | null {
  if (!isMpegFrame(bytes.subarray(at, at + 3))) return null;
  const b1 = bytes[at + 1] ?? 0;
  const b2 = bytes[at + 2] ?? 0;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11; // 11 layer I, 10 layer II, 01 layer III
  const mpeg1 = version === 0b11;
  const table = mpeg1
    ? layer === 0b11
      ? BITRATES_KBPS.v1l1
      : layer === 0b10
        ? BITRATES_KBPS.v1l2
        : BITRATES_KBPS.v1l3
    : layer === 0b11
      ? BITRATES_KBPS.v2l1
      : BITRATES_KBPS.v2l23;
  const bitrate = (table[b2 >> 4] ?? 0) * 1000;
  const sampleRate = SAMPLE_RATES[version]?.[(b2 >> 2) & 0b11] ?? 0;
  const padding = (b2 >> 1) & 1;
  if (bitrate === 0 || sampleRate === 0) return 0;
  if (layer === 0b11) return (Math.floor((12 * bitrate) / sampleRate) + padding) * 4;
  const perSample = layer === 0b01 && !mpeg1 ? 72 : 144;
  return Math.floor((perSample * bitrate) / sampleRate) + padding;
}

function checkMp3(bytes: Uint8Array): Verdict {
  let at = 0;
  // One or more ID3v2 tags: "ID3", version 2 to 4, a revision, flags and a 28-bit "syncsafe" size.
  while (ascii(bytes, at, "ID3")) {
    if (bytes.length < at + 10) return { need: at + 10 };
    const major = bytes[at + 3] ?? 0;
    const sizeBytes = [6, 7, 8, 9].map((i) => bytes[at + i] ?? 0);
    if (major < 2 || major > 4 || bytes[at + 4] === 0xff || sizeBytes.some((b) => b >= 0x80)) {
      return "its ID3 tag is malformed";
    }
    const size = sizeBytes.reduce((sum, b) => sum * 128 + b, 0);
    const footer = major === 4 && ((bytes[at + 5] ?? 0) & 0x10) !== 0 ? 10 : 0;
    at += 10 + size + footer;
  }
  // Encoders may pad with zeros after the tag.
  while (at < bytes.length && bytes[at] === 0) at++;
  if (bytes.length < at + 4) return { need: at + 4 };
  const length = mpegFrameLength(bytes, at);
  if (length === null) {
    return at === 0 ? "it has no MPEG audio frame" : "no MPEG audio frame follows its ID3 tag";
  }
  if (length === 0) return true; // Free format: frame lengths are not in the header.
  const next = at + length;
  if (bytes.length < next + 4) return { need: next + 4 };
  const nextLength = mpegFrameLength(bytes, next);
  const sameStream =
    nextLength !== null && ((bytes[next + 1] ?? 0) & 0xfe) === ((bytes[at + 1] ?? 0) & 0xfe);
  return sameStream || "its first MPEG audio frame is not followed by another";
}

// ---- WebM (Matroska / EBML) ---------------------------------------------------------------------

/** An EBML variable-length integer at `at`: its length and value (marker bit kept for ids). */
function readVint(
  bytes: Uint8Array,
  at: number,
  keepMarker: boolean,
): { length: number; value: number; unknown: boolean } | { need: number } | null {
  const first = bytes[at];
  if (first === undefined) return { need: at + 1 };
  if (first === 0) return null;
  const length = Math.clz32(first) - 23; // 1 to 8
  if (bytes.length < at + length) return { need: at + length };
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = bytes[at + i] ?? 0;
    value = value * 256 + b;
    allOnes &&= b === 0xff;
  }
  return { length, value, unknown: !keepMarker && allOnes };
}

type EbmlElement = { id: number; dataStart: number; size: number | null };

function readElement(bytes: Uint8Array, at: number): EbmlElement | { need: number } | null {
  const id = readVint(bytes, at, true);
  if (!id || "need" in id) return id;
  const size = readVint(bytes, at + id.length, false);
  if (!size || "need" in size) return size;
  return {
    id: id.value,
    dataStart: at + id.length + size.length,
    size: size.unknown ? null : size.value,
  };
}

const EBML_DOCTYPE = 0x4282;
const SEGMENT = 0x18538067;
const TRACKS = 0x1654ae6b;
const CLUSTER = 0x1f43b675;
/** Top-level elements a Segment may hold (SeekHead, Info, Tracks, Cluster, Cues, ..., Void, CRC). */
const SEGMENT_CHILDREN = new Set([
  0x114d9b74,
  0x1549a966,
  TRACKS,
  CLUSTER,
  0x1c53bb6b,
  0x1941a469,
  0x1043a770,
  0x1254c367,
  0xec,
  0xbf,
]);

function checkWebm(bytes: Uint8Array): Verdict {
  const header = readElement(bytes, 0);
  if (!header || "need" in header) return header ?? "its EBML header is malformed";
  if (header.size === null) return "its EBML header is malformed";
  const headerEnd = header.dataStart + header.size;
  if (bytes.length < headerEnd) return { need: headerEnd };
  let docType: string | null = null;
  for (let at = header.dataStart; at < headerEnd; ) {
    const child = readElement(bytes, at);
    if (!child || "need" in child || child.size === null) return "its EBML header is malformed";
    if (child.id === EBML_DOCTYPE) {
      docType = Buffer.from(bytes.subarray(child.dataStart, child.dataStart + child.size))
        .toString("latin1")
        .replace(/\0+$/, "");
    }
    at = child.dataStart + child.size;
  }
  if (docType !== "webm" && docType !== "matroska") return "it is not a WebM document";
  const segment = readElement(bytes, headerEnd);
  if (!segment || "need" in segment) return segment ?? "it has no Segment";
  if (segment.id !== SEGMENT) return "it has no Segment";
  // Walk the Segment's children up to Tracks, which must come before any audio (Cluster).
  for (let at = segment.dataStart; ; ) {
    const child = readElement(bytes, at);
    if (!child || "need" in child) return child ?? "its Segment is malformed";
    if (!SEGMENT_CHILDREN.has(child.id)) return "its Segment is malformed";
    if (child.id === TRACKS) return true;
    if (child.id === CLUSTER) return "it has audio before its track list";
    // An element of unknown size cannot be skipped; what was read so far is well-formed.
    if (child.size === null) return true;
    at = child.dataStart + child.size;
  }
}

// ---- Ogg --------------------------------------------------------------------------------------

let oggCrcTable: Uint32Array | undefined;

/** Ogg's page checksum: CRC-32 with polynomial 0x04c11db7, not reflected, initial value 0. */
function oggCrc(bytes: Uint8Array): number {
  if (!oggCrcTable) {
    oggCrcTable = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let r = i << 24;
      for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
      oggCrcTable[i] = r >>> 0;
    }
  }
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ (oggCrcTable[((crc >>> 24) ^ b) & 0xff] ?? 0)) >>> 0;
  return crc;
}

const OGG_AUDIO_CODECS = ["OpusHead", "\u0001vorbis", "Speex   ", "\u007fFLAC"];

function checkOgg(bytes: Uint8Array): Verdict {
  if (bytes.length < 27) return { need: 27 };
  if (bytes[4] !== 0 || ((bytes[5] ?? 0) & 0x02) === 0) return "its first Ogg page is malformed";
  const segments = bytes[26] ?? 0;
  const payloadStart = 27 + segments;
  if (bytes.length < payloadStart) return { need: payloadStart };
  let payloadLength = 0;
  for (let i = 27; i < payloadStart; i++) payloadLength += bytes[i] ?? 0;
  const pageEnd = payloadStart + payloadLength;
  if (bytes.length < pageEnd) return { need: pageEnd };
  const page = Uint8Array.from(bytes.subarray(0, pageEnd));
  const stored = new DataView(page.buffer).getUint32(22, true);
  page.fill(0, 22, 26);
  if (oggCrc(page) !== stored) return "its first Ogg page has a wrong checksum";
  if (!OGG_AUDIO_CODECS.some((codec) => ascii(bytes, payloadStart, codec))) {
    return "its Ogg stream is not Opus, Vorbis, Speex or FLAC audio";
  }
  return true;
}

// ---- WAV (RIFF) -------------------------------------------------------------------------------

const printable = (bytes: Uint8Array, at: number) =>
  [0, 1, 2, 3].every((i) => {
    const b = bytes[at + i];
    return b !== undefined && b >= 0x20 && b <= 0x7e;
  });

function checkWav(bytes: Uint8Array): Verdict {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format = false;
  for (let at = 12; ; ) {
    if (bytes.length < at + 8) return { need: at + 8 };
    if (!printable(bytes, at)) return "its RIFF chunks are malformed";
    const size = view.getUint32(at + 4, true);
    if (ascii(bytes, at, "data")) return format || "its audio data comes before its format";
    if (ascii(bytes, at, "fmt ")) {
      if (size < 16) return "its format chunk is malformed";
      if (bytes.length < at + 24) return { need: at + 24 };
      const codec = view.getUint16(at + 8, true);
      const channels = view.getUint16(at + 10, true);
      const sampleRate = view.getUint32(at + 12, true);
      const blockAlign = view.getUint16(at + 20, true);
      if (codec === 0 || channels === 0 || sampleRate === 0 || blockAlign === 0) {
        return "its format chunk describes no audio";
      }
      format = true;
    }
    at += 8 + size + (size % 2);
  }
}

// ---- M4A (ISO base media) ---------------------------------------------------------------------

function checkMp4(bytes: Uint8Array): Verdict {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ftypSize = view.getUint32(0, false);
  if (ftypSize < 16 || ftypSize > 4096 || !printable(bytes, 8)) return "its ftyp box is malformed";
  // The boxes after ftyp, up to the movie (moov, moof) or the media data (mdat).
  for (let at = ftypSize; ; ) {
    if (bytes.length < at + 8) return { need: at + 8 };
    if (!printable(bytes, at + 4)) return "its boxes are malformed";
    let size = view.getUint32(at, false);
    if (size === 1) {
      if (bytes.length < at + 16) return { need: at + 16 };
      size = Number(view.getBigUint64(at + 8, false));
    }
    // Size 0 runs to the end of the file; otherwise a box holds at least its own header.
    if (size !== 0 && size < 8) return "its boxes are malformed";
    const type = Buffer.from(bytes.subarray(at + 4, at + 8)).toString("latin1");
    if (type === "moov" || type === "moof" || type === "mdat") return true;
    if (size === 0) return "it has no movie or media data";
    at += size;
  }
}
