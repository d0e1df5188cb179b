/**
 * What relatives read: the family on the other end of a share link, a memory book's QR code or a
 * mail. Kept apart from the spec's strings, which stay exact in messages.ts.
 */
export const RELATIVES = {
  /** Before the link to the owner's memories on a memory's page: "From Grandma Rose's Memories". */
  memoryFrom: "From",
  /** The shared view's welcome: who shared it, and what the relative can do without an account. */
  welcomeTitle: (name: string) => `${name} shared these memories with you`,
  welcomeListen: "Press Play to listen to a memory, right here in the list.",
  welcomeAnswer:
    "Open one to answer with your voice: record a spoken comment. No account or password is needed.",
  /**
   * One line on every page a browser holding a share link opens (nobody logged in): whose
   * memories they are listening to, each owner named by their display name or username.
   */
  greeting: (names: string | readonly string[]) =>
    `Welcome, you are listening to ${joinNames(
      (typeof names === "string" ? [names] : names).map((name) => `${name}'s`),
    )} memories`,
  /** The play button of a list item, named after the memory. */
  playMemory: (title: string) => `Play ${title}`,
  pauseMemory: (title: string) => `Pause ${title}`,
  /** Beside Delete on a recording that holds no speech: back to the recorder. */
  recordAgain: "Record again",
} as const;

/** "A", "A and B", "A, B and C". */
function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
