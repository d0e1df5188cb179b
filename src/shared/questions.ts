import { formatMessage } from "./i18n/format";
import { currentLanguage } from "./i18n/languages";
import { translatable } from "./i18n/page-words";
/**
 * The built-in family-memory questions shown above the recorder and sent in weekly reminders. The
 * one list (client and server); each user goes through all of them in a shuffled order before any
 * comes back (see the server's questions service).
 */
export const ENGLISH_QUESTIONS: readonly string[] = Object.freeze([
  "What made you laugh together this week?",
  "What was your favourite game when you were a child?",
  "Tell the story of the day you first held your child.",
  "What did your home smell like when you were little?",
  "Who was your best friend at school, and what did you get up to?",
  "What is a family recipe you love, and who taught it to you?",
  "Describe a holiday you will never forget.",
  "What did you want to be when you grew up?",
  "What is the bravest thing you have ever done?",
  "Tell about a time you got lost.",
  "What song always takes you back to a special moment?",
  "What was your first job, and what did you learn from it?",
  "How did you meet your partner?",
  "What was the best present you ever received?",
  "Tell about a teacher who changed your life.",
  "What did you do on rainy days as a child?",
  "What is a family tradition you hope will carry on?",
  "Describe your grandparents' house.",
  "What was the first film you saw at the cinema?",
  "Tell about a time you were really proud of yourself.",
  "What is the funniest thing a child in our family has said?",
  "What did you eat for breakfast when you were young?",
  "Tell about the first time you rode a bicycle.",
  "What was your neighbourhood like when you were growing up?",
  "Which book did you read again and again?",
  "What is a lesson your parents taught you that you still follow?",
  "Tell about a snowy day you remember.",
  "What was your favourite toy, and what happened to it?",
  "Describe a perfect Sunday from your childhood.",
  "What makes you smile when you think of our family?",
  "Tell about a time you helped a stranger, or a stranger helped you.",
  "What was school like for you?",
  "What is the best advice anyone ever gave you?",
  "Tell about a pet you loved.",
  "What was your first day at a new school like?",
  "What did you and your friends do in the summer holidays?",
  "Tell about a time you made a mistake and what you learned.",
  "What did your family do on birthdays?",
  "Describe the kitchen you grew up with.",
  "What was your favourite place to hide or play?",
  "Tell about a trip to the seaside.",
  "What were you afraid of as a child, and how did you get over it?",
  "What games did you play with your brothers, sisters or cousins?",
  "Tell about the day you moved into a new home.",
  "What is something you made with your own hands that you are proud of?",
  "What did your parents do for work?",
  "Tell about a celebration that went wonderfully wrong.",
  "What was the most beautiful place you ever visited?",
  "What do you hope our children remember about their childhood?",
  "Tell about a family argument that ended in laughter.",
  "What did you do on your first day as a parent or grandparent?",
  "What was your favourite meal that your mother or father cooked?",
  "Tell about a time you won something.",
  "What hobbies did you have as a teenager?",
  "What was the first concert or show you went to?",
  "Tell about a time you were very surprised.",
  "What was a typical weekday like when you were ten?",
  "Who was your hero when you were young, and why?",
  "Tell about the kindest thing someone did for you.",
  "What did you dream about doing one day?",
  "What did the streets sound like where you grew up?",
  "Tell about a long journey you made.",
  "What was your favourite season as a child, and why?",
  "What is something you used to believe as a child that made you laugh later?",
  "Tell about a time the whole family was together.",
  "What chores did you have at home?",
  "What was the name of your first pet, and how did it get its name?",
  "Tell about a sports match or race you remember.",
  "What did you do to earn your first pocket money?",
  "What games did you play in the playground?",
  "Tell about the day you learned to swim.",
  "What was your favourite subject at school?",
  "What do you remember about your wedding day, or another big day?",
  "Tell about a time you stayed up very late.",
  "What did you and your grandparents do together?",
  "What is a smell that brings back a memory?",
  "Tell about the first meal you cooked by yourself.",
  "What was a fashion you loved when you were young?",
  "What were the holidays like in your family?",
  "Tell about a time you were homesick.",
  "What do you love most about the person you are talking to?",
  "What was the hardest thing you ever learned to do?",
  "Tell about a time you laughed until you cried.",
  "What was your bedroom like when you were a child?",
  "What made your mother or father laugh?",
  "Tell about a storm you remember.",
  "What was your favourite sweet or treat?",
  "What did you name your first car, bike or boat?",
  "Tell about a friend you have known for a very long time.",
  "What was the biggest change you lived through?",
  "What do you wish you had known at twenty?",
  "Tell about something you built, planted or fixed.",
  "What is a day you would like to live again?",
  "What did you do when you were bored as a child?",
  "Tell about the moment you knew you were grown up.",
  "What is a song you sang to your children?",
  "What is a family joke only we understand?",
  "Tell about a time something went wrong on holiday.",
  "What did you love about the town you grew up in?",
  "What would you like your great-grandchildren to know about you?",
  "Tell about a time you were scared but did it anyway.",
  "What was the first thing you bought with your own money?",
  "What is your earliest memory?",
  "Tell about a picnic, a walk or an outing you loved.",
  "What is something our family has always been good at?",
  "Tell about a letter, card or message you have kept.",
  "What was a typical family dinner like?",
  "What makes a good day for you now?",
]);

/** The library in the page's language (the browser puts its words in place). */
export const QUESTIONS: readonly string[] = translatable("QUESTIONS", [...ENGLISH_QUESTIONS]);

/**
 * A question as the page's language says it: a library question stored or served in English is
 * read in the reader's language; the family's own questions stay as they were asked.
 */
export function questionInPageLanguage(text: string): string {
  const index = ENGLISH_QUESTIONS.indexOf(text);
  return index === -1 ? text : (QUESTIONS[index] ?? text);
}

/**
 * The question a special day's reminder asks, fitting the day ("Mia's birthday" asks about Mia's
 * birth). The server names the reader's words and language; the browser's page speaks its own.
 */
export function specialDayQuestion(
  label: string,
  words: Readonly<Record<keyof typeof SPECIAL_DAY_QUESTIONS, string>> = SPECIAL_DAY_QUESTIONS,
  language: string = currentLanguage(),
): string {
  const name = label.trim();
  const birthday = /^(.+?)['’]s?\s+birthday$/i.exec(name);
  if (birthday?.[1]) return formatMessage(words.birthday, { name: birthday[1] }, language);
  const anniversary = /^(.+?)\s+anniversary$/i.exec(name);
  if (anniversary?.[1]) return formatMessage(words.anniversary, { name }, language);
  return formatMessage(words.other, { name }, language);
}

/** A special day's question: a birthday's, an anniversary's, any other day's. */
export const SPECIAL_DAY_QUESTIONS = translatable("SPECIAL_DAY_QUESTIONS", {
  birthday: "Tell {name} about the day they were born.",
  anniversary: "Tell the story of the day behind {name}: how did it begin?",
  other: "What do you remember about {name}? Tell the story of that day.",
});

/**
 * Whether `text` is a question the product asks: a built-in one or one of these special days'.
 * `libraries`: the built-in list in each language to recognise (the browser knows its page's; the
 * server passes every language's, so a question mailed in Spanish is known when answered).
 */
export function isKnownQuestion(
  text: string,
  specialDayLabels: readonly string[] = [],
  libraries: readonly (readonly string[])[] = [QUESTIONS],
): boolean {
  return (
    libraries.some((questions) => questions.includes(text)) ||
    ENGLISH_QUESTIONS.includes(text) ||
    specialDayLabels.some((label) => specialDayQuestion(label) === text)
  );
}
