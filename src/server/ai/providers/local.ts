import { MESSAGES } from "../../../shared/messages";
import { estimateDuration } from "../../../shared/rules";
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

/** Offline transcription with CMU pocketsphinx (Debian's pocketsphinx_continuous). */
export class PocketsphinxTranscriber implements Transcriber {
  constructor(private readonly binary = "pocketsphinx_continuous") {}

  /** Aborting `options.signal` kills ffmpeg or the engine, whichever is running. */
  transcribe(audio: AudioInput, options: CallOptions = {}): Promise<TranscriptionResult> {
    const { signal } = options;
    const work = async () => {
      const bytes = await audioBytes(audio.bytes);
      const text = await withSpeechWav(bytes, audio.filename, signal, async (wav) => {
        const out = await run(this.binary, ["-infile", wav, "-logfn", "/dev/null"], {
          notFound: POCKETSPHINX_MISSING,
          signal,
        });
        return out
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean)
          .join(" ");
      });
      return { text, duration: estimateDuration(bytes.length) };
    };
    return withErrorPrefix(MESSAGES.transcriptionFailedPrefix, work, signal);
  }
}
