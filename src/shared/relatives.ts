import { formatMessage } from "./i18n/format";
import { translatable } from "./i18n/page-words";

/**
 * What relatives read: the family on the other end of a share link, a memory book's QR code or a
 * mail. Kept apart from the spec's strings, which stay exact in messages.ts.
 */
export const RELATIVES = translatable("RELATIVES", {
  /** Before the link to the owner's memories on a memory's page: "From Grandma Rose's Memories". */
  memoryFrom: "From",
  /** The shared view's welcome: who shared it, and what the relative can do without an account. */
  welcomeTitle: "{name} shared these memories with you",
  welcomeListen: "Press Play to listen to a memory, right here in the list.",
  welcomeAnswer:
    "Open one to answer with your voice: record a spoken comment. No account or password is needed.",
  /**
   * One line on every page a browser holding a share link opens (nobody logged in): whose
   * memories they are listening to, each owner named by their display name or username.
   */
  greeting: "Welcome, you are listening to {owners} memories",
  /** One owner in the greeting: "Grandma Rose's". */
  ownerPossessive: "{name}''s",
  /** The greeting's owners: the last two joined, each earlier one before them with a comma. */
  namesAnd: "{first} and {last}",
  namesComma: "{first}, {rest}",
  /** The play button of a list item, named after the memory. */
  playMemory: "Play {title}",
  pauseMemory: "Pause {title}",
  /** Beside Delete on a recording that holds no speech: back to the recorder. */
  recordAgain: "Record again",
});

/** "Welcome, you are listening to A's and B's memories". */
export function relativeGreeting(names: string | readonly string[]): string {
  const owners = (typeof names === "string" ? [names] : names).map((name) =>
    formatMessage(RELATIVES.ownerPossessive, { name }),
  );
  return formatMessage(RELATIVES.greeting, { owners: joinNames(owners) });
}

/** The shared view's heading: "{name} shared these memories with you". */
export function sharedWelcomeTitle(name: string): string {
  return formatMessage(RELATIVES.welcomeTitle, { name });
}

/** The play and pause buttons of a list item. */
export function playMemoryLabel(title: string): string {
  return formatMessage(RELATIVES.playMemory, { title });
}
export function pauseMemoryLabel(title: string): string {
  return formatMessage(RELATIVES.pauseMemory, { title });
}

/** "A", "A and B", "A, B and C". */
function joinNames(names: readonly string[]): string {
  const last = names[names.length - 1] ?? "";
  if (names.length <= 1) return last;
  const pair = formatMessage(RELATIVES.namesAnd, { first: names[names.length - 2] ?? "", last });
  return names
    .slice(0, -2)
    .reduceRight((rest, first) => formatMessage(RELATIVES.namesComma, { first, rest }), pair);
}
