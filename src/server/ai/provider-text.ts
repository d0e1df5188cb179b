import type { AiProviders } from "./ai";

/** C0 control characters but tab and line feed (CR is made a line feed first). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
const CONTROLS = /[\u0000-\u0008\u000b-\u001f]/g;

/**
 * Text as a provider wrote it, made safe to store: NUL (which PostgreSQL refuses in text) and
 * the other C0 control characters removed, CR LF and a lone CR made LF. With `lines: false`, tab
 * and line feed become spaces too (a caption segment, a tag).
 */
export function cleanProviderText(
  text: string,
  { lines = true }: { lines?: boolean } = {},
): string {
  const cleaned = text.replace(/\r\n?/g, "\n").replace(CONTROLS, "");
  return lines ? cleaned : cleaned.replace(/[\t\n]/g, " ");
}

/**
 * The providers with every text they return cleaned (`cleanProviderText`) before the pipeline
 * checks or stores it: transcripts, segments, summaries (and so titles), tags, comment transcripts.
 */
export function withCleanText(ai: AiProviders): AiProviders {
  const { transcriber, textModel } = ai;
  return {
    name: ai.name,
    transcriber: {
      transcribe: async (audio, options) => {
        const result = await transcriber.transcribe(audio, options);
        return {
          ...result,
          text: cleanProviderText(result.text),
          ...(result.segments
            ? {
                segments: result.segments.map((segment) => ({
                  ...segment,
                  text: cleanProviderText(segment.text, { lines: false }),
                })),
              }
            : {}),
        };
      },
    },
    textModel: {
      summarize: async (transcript, options) =>
        cleanProviderText(await textModel.summarize(transcript, options)),
      score: (transcript, options) => textModel.score(transcript, options),
      tags: async (transcript, now, options) =>
        (await textModel.tags(transcript, now, options)).map((tag) =>
          cleanProviderText(tag, { lines: false }),
        ),
    },
  };
}
