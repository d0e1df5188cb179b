import { MESSAGES } from "../../../shared/messages";
import { estimateDuration } from "../../../shared/rules";
import { FALLBACK_ENGINE, type TranscriptSegment } from "../../../shared/transcript";
import {
  type AudioInput,
  audioBytes,
  type CallOptions,
  type Transcriber,
  type TranscriptionResult,
  withErrorPrefix,
} from "../ai";
import { run, withSpeechWav } from "../audio-split";

export const POCKETSPHINX_MISSING =
  "no offline speech engine is installed. Install one with `apt-get install pocketsphinx pocketsphinx-en-us`, or configure an OpenAI-compatible server with OPENAI_API_KEY / OPENAI_BASE_URL";

/** A word line of `-time yes`: the word (an alternate pronunciation marked "(2)"), start, end, score. */
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;
/** A pause at least this long starts a new segment. */
const PAUSE_SECONDS = 0.3;

/**
 * pocketsphinx_continuous's output with `-time yes`: for each utterance, its text on one line, then
 * one line per word with its times. Returns the text and the words grouped into segments at pauses
 * and utterance ends (markers such as <s>, <sil> and [NOISE] are not words).
 */
export function parsePocketsphinx(output: string): { text: string; segments: TranscriptSegment[] } {
  const lines: string[] = [];
  const segments: TranscriptSegment[] = [];
  let current: TranscriptSegment | null = null;
  const close = () => {
    if (current) segments.push(current);
    current = null;
  };
  for (const raw of output.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const word = WORD_LINE.exec(line);
    if (!word) {
      close();
      lines.push(line);
      continue;
    }
    const [, token = "", start = "0", end = "0"] = word;
    if (/^[<[]/.test(token)) {
      if (token !== "<s>" && Number(end) - Number(start) >= PAUSE_SECONDS) close();
      continue;
    }
    const text = token.replace(/\(\d+\)$/, "");
    if (current) {
      current.text += ` ${text}`;
      current.end = Number(end);
    } else {
      current = { start: Number(start), end: Number(end), text };
    }
  }
  close();
  return { text: lines.join(" "), segments };
}

/** Offline transcription with CMU pocketsphinx (Debian's pocketsphinx_continuous). */
export class PocketsphinxTranscriber implements Transcriber {
  constructor(private readonly binary = "pocketsphinx_continuous") {}

  /** Aborting `options.signal` kills ffmpeg or the engine, whichever is running. */
  transcribe(audio: AudioInput, options: CallOptions = {}): Promise<TranscriptionResult> {
    const { signal } = options;
    const work = async () => {
      const bytes = await audioBytes(audio.bytes);
      const output = await withSpeechWav(bytes, audio.filename, signal, (wav) =>
        run(this.binary, ["-infile", wav, "-logfn", "/dev/null", "-time", "yes"], {
          notFound: POCKETSPHINX_MISSING,
          signal,
        }),
      );
      const { text, segments } = parsePocketsphinx(output);
      return {
        text,
        duration: estimateDuration(bytes.length),
        engine: FALLBACK_ENGINE,
        ...(segments.length > 0 ? { segments } : {}),
      };
    };
    return withErrorPrefix(MESSAGES.transcriptionFailedPrefix, work, signal);
  }
}
