/**
 * Line breaks (CR, LF, NEL, U+2028/2029), tabs and every other control character, with the
 * spaces around them: in a mail's text or subject they would start lines the journal did not
 * write (a display name "Rose\nClick here: ...", a title that fakes a second memory).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes.
const BREAKS = /\s*[\u0000-\u001f\u007f-\u009f\u2028\u2029]+\s*/g;

/**
 * A name or title a person typed, made safe to place in a mail's text or subject: line breaks and
 * control characters collapse to one space, so it stays on its own line. Every mail builder
 * passes names, titles and labels through it.
 */
export function mailLine(text: string): string {
  return text.replace(BREAKS, " ").trim();
}
