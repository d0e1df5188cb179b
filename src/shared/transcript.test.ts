import { describe, expect, it } from "vitest";
import { cleanSegments, keepUnchangedSegments, toWebVtt } from "./transcript";

describe("timed transcripts", () => {
  const segments = [
    { start: 0, end: 2.5, text: "We went to the sea." },
    { start: 2.5, end: 4, text: "Grandpa swam." },
    { start: 4, end: 6.25, text: "You built a castle." },
  ];

  it("writes WebVTT cues, escaping what would end a cue or start markup", () => {
    expect(
      toWebVtt([
        ...segments.slice(0, 1),
        { start: 3661.5, end: 3662, text: "a --> b <i> & c\n\nd" },
      ]),
    ).toBe(
      "WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.500\nWe went to the sea.\n\n2\n01:01:01.500 --> 01:01:02.000\na --&gt; b &lt;i&gt; &amp; c d\n\n",
    );
    expect(toWebVtt([])).toBe("WEBVTT\n\n");
  });

  it("makes every line terminator in a segment a space, so none ends a cue early", () => {
    // WebVTT ends a line at CR, LF or CRLF; U+2028 and U+2029 end lines in other readers.
    const text = "one\rtwo\r\n\r\nthree\u2028four\u2029five \r six\n\rseven";
    expect(toWebVtt([{ start: 0, end: 1, text }])).toBe(
      "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\none two three four five six seven\n\n",
    );
  });

  it("keeps the times of sentences an edit left alone; edited ones lose theirs", () => {
    expect(
      keepUnchangedSegments(segments, "We went to the sea.  Grandpa swam far. You built a castle."),
    ).toEqual([segments[0], segments[2]]);
    // Sentences swapped: times stay in order, so only the first one found keeps its time.
    expect(keepUnchangedSegments(segments, "You built a castle. We went to the sea.")).toEqual([
      segments[0],
    ]);
  });

  it("cleans an engine's segments: trimmed, none empty, inside the audio, in order", () => {
    expect(
      cleanSegments(
        [
          { start: 5, end: 9, text: " later " },
          { start: -1, end: 1, text: "first" },
          { start: 2, end: 1, text: "backwards" },
          { start: 3, end: 4, text: "  " },
        ],
        6,
      ),
    ).toEqual([
      { start: 0, end: 1, text: "first" },
      { start: 2, end: 2, text: "backwards" },
      { start: 5, end: 6, text: "later" },
    ]);
  });
});
