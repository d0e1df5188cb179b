/**
 * What the local text model knows about each language it writes in: function words, fillers,
 * the words it uses itself, and small lexicons for scoring. English, Spanish and German.
 */

export const LOCAL_LANGUAGES = ["en", "es", "de"] as const;
export type LocalLanguage = (typeof LOCAL_LANGUAGES)[number];

export function isLocalLanguage(code: string): code is LocalLanguage {
  return (LOCAL_LANGUAGES as readonly string[]).includes(code);
}

const words = (text: string) => new Set(text.trim().split(/\s+/));

/**
 * Function words (and very common verbs) of each language: never a topic. Tag candidates are
 * checked against all three lists, so "zum" or "hoy" in a mixed transcript never becomes a tag.
 */
export const STOP_WORDS: Record<LocalLanguage, Set<string>> = {
  en: words(`
    a about above after again against all almost also am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does doesn't
    doing don't down during each even ever every few for from further get gets getting got gotten had
    hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself
    his how how's i i'd i'll i'm i've if in into is isn't it it's its itself just let's like made make
    makes many me more most much must mustn't my myself no nor not now of off oh ok okay on once only
    or other ought our ours ourselves out over own really said same say says she she'd she'll she's
    should shouldn't so some such than that that's the their theirs them themselves then there there's
    these they they'd they'll they're they've this those through to too under until up upon us very
    was wasn't we we'd we'll we're we've well went were weren't what what's when when's where where's
    which while who who's whom why why's will with won't would wouldn't yeah yes yet you you'd you'll
    you're you've your yours yourself yourselves go goes going gone come came coming know knew think
    thought want wanted see saw seen look looked tell told take took taken give gave put still back
    around maybe actually right thing things something anything everything nothing lot lots bit kind
    sort way stuff today yesterday tomorrow tonight day days time times morning afternoon evening night
    week weekend month year years ago always never sometimes usually also one two three
  `),
  es: words(`
    a al algo algún alguna alguno algunos ante antes aquel aquella aquí así aunque bien cada casi como
    cómo con contra cual cuál cuando cuándo de del desde donde dónde dos durante e el él ella ellas
    ellos en entonces entre era eran eras es esa esas ese eso esos esta está estaba estaban estábamos
    estamos están estar estas este esto estos estoy fue fuera fueron fui fuimos fuiste ha había habían
    habíamos han has hasta hay he hemos hice hicimos hiciste hizo hoy ayer mañana la las le les lo los
    más me mi mí mis mucho mucha muchos muchas muy nada ni no nos nosotros nuestra nuestro nuestros o
    otra otro otros para pero poco por porque pues qué que quien quién se sea ser si sí siempre sin
    sobre son su sus también tan tanto te tenía teníamos tenías tengo tiene tienen tu tú tus un una
    uno unos unas y ya yo vez veces cosa cosas algo día días momento luego después bueno eh este
    dijo dije dijiste decía quería quiero puedo podía va vas vamos iba íbamos ir ver vi viste vio
    hacer hace hacía tener estuvo estuvimos estuviste sabes creo mira oye pasó solo sola tus tres
    cuatro cinco seis siete ocho nueve diez
  `),
  de: words(`
    aber alle allem allen aller alles als also am an ander andere anderen auch auf aus bei beim bin
    bis bist da dabei damals damit dann das dass dem den denn der des dich die dies diese diesem diesen
    dieser dieses dir doch dort du durch ein eine einem einen einer eines er es etwas euch euer für gab
    ganz gar gegen gehabt gerade gestern gewesen hab habe haben hast hat hatte hatten heute hier hin ich
    ihm ihn ihnen ihr im immer in ist ja jede jeden jeder jetzt kam kamen kann kein keine konnte mal man
    mehr mein meine meinem meinen meiner mich mir mit morgen muss nach nicht nichts noch nun nur ob oder
    ohne schon sehr sein seine sich sie sind so sogar soll über um und uns unser unsere unter viel vom
    von vor war waren warst was weil wenn wer wie wieder wir wird wirst wo wollte wurde wurden zu zum
    zur zwei drei vier fünf sechs sieben acht neun zehn einmal seiner seinem seinen ihrer ihrem ihren
    deiner deinem deinen deine dein unserem unseren unserer meinem meinen meiner tag tage zeit ding dinge sachen weißt glaube also äh ähm halt eben eigentlich
    gemacht gesagt gesehen gegangen gekommen sagte sagtest ging gingen machte haben hattest waren
  `),
};

/** Any language's stop word: the union of the lists above. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.en.has(word) || STOP_WORDS.es.has(word) || STOP_WORDS.de.has(word);
}

/** Sounds that carry nothing (removed from the summary and never a topic). */
export const FILLERS: Record<LocalLanguage, Set<string>> = {
  en: words("um umm uh uhh erm er hmm mm mhm"),
  es: words("eh em mm mmm"),
  // Not "er": in German it is "he".
  de: words("äh ähm öhm hm hmm mhm"),
};

/** Words that are dates, not topics (month names are in MONTHS). */
export const WEEKDAYS = words(`
  monday tuesday wednesday thursday friday saturday sunday lunes martes miércoles jueves viernes
  sábado domingo montag dienstag mittwoch donnerstag freitag samstag sonntag
`);

/** Nouns too vague to say what a memory is about. */
export const VAGUE_NOUNS = words(`
  world place end side front top part rest couple ages everyone everybody someone people person
  mundo lado parte resto gente persona año años welt seite teil rest leute person mal jahr jahre
  jahren
`);

/** Words that open a sentence without adding to it ("So, ...", "And then ..."). */
export const LEADING_FILLERS: Record<LocalLanguage, Set<string>> = {
  en: words("and so well okay ok oh but anyway like alright right then"),
  es: words("y pues bueno entonces oye mira pero luego"),
  // Not "also" or time words: German puts the verb second, so dropping them breaks the sentence.
  de: words("und na ja naja okay"),
};

/**
 * Time words that open a sentence ("Today we went ..."): dropped from a title so that titles
 * start with what happened, not with the same "Today we ..." as every other memory.
 */
export const LEADING_TIME_WORDS: Record<LocalLanguage, string[]> = {
  en: [
    "today",
    "yesterday",
    "tonight",
    "last night",
    "this morning",
    "this afternoon",
    "this evening",
    "this week",
    "last week",
    "last weekend",
    "this weekend",
    "last summer",
    "this summer",
    "last year",
    "this year",
  ],
  es: ["hoy", "ayer", "esta mañana", "esta tarde", "esta noche", "anoche", "el año pasado"],
  de: [],
};

/** Conjunctions that start a new sentence only when a subject follows ("and we", not "and a"). */
export const BARE_AND = words("and y und");

/** Subjects after which an English leading time word can go ("Today we went" -> "We went"). */
export const EN_SUBJECTS = words(
  "i we you he she they it my your our his her their mom dad mommy daddy grandma grandpa",
);

/** Words that let an unpunctuated transcript be cut into sentences before them. */
export const SENTENCE_STARTERS: Record<LocalLanguage, string[]> = {
  en: ["and then", "and so", "so", "then", "but", "after that", "anyway", "and"],
  es: ["y luego", "y entonces", "entonces", "luego", "después", "pero", "y"],
  de: ["und dann", "dann", "danach", "aber", "und"],
};

/** People a memory is often about; said with "your" in English ("your grandpa"). */
export const FAMILY_WORDS = words(`
  mom mum mommy mummy mama dad daddy papa grandma grandpa granny grandmother grandfather nana nan
  sister brother aunt uncle cousin baby family mamá papá abuela abuelo abuelos abuelita abuelito
  hermana hermano tía tío prima primo bebé familia mutter vater mama papa oma opa großmutter
  großvater schwester bruder tante onkel cousine baby familie
`);

/** Lexicons for the scores, all three languages together (words are matched by their start). */
export const LEXICON = {
  love: [
    "love",
    "loved",
    "heart",
    "proud",
    "hug",
    "kiss",
    "cuddl",
    "grateful",
    "thankful",
    "quiero",
    "amor",
    "orgullos",
    "abrazo",
    "beso",
    "corazón",
    "liebe",
    "lieb",
    "stolz",
    "umarm",
    "kuss",
    "herz",
  ],
  sad: [
    "sad",
    "cried",
    "cry",
    "crying",
    "tears",
    "miss",
    "missed",
    "died",
    "passed away",
    "funeral",
    "hospital",
    "sick",
    "lost",
    "goodbye",
    "triste",
    "lloré",
    "llor",
    "lágrimas",
    "extraño",
    "murió",
    "traurig",
    "weinte",
    "geweint",
    "tränen",
    "vermiss",
    "gestorben",
    "starb",
    "krankenhaus",
    "abschied",
  ],
  funny: [
    "laugh",
    "giggl",
    "funny",
    "silly",
    "joke",
    "hilarious",
    "reímos",
    "reíste",
    "risa",
    "gracioso",
    "chiste",
    "lachen",
    "lachte",
    "gelacht",
    "lustig",
    "witz",
  ],
  cute: [
    "little",
    "tiny",
    "cute",
    "sweet",
    "puppy",
    "kitten",
    "teddy",
    "baby",
    "smile",
    "smiled",
    "giggl",
    "bebé",
    "pequeñ",
    "chiquit",
    "sonris",
    "peluche",
    "klein",
    "süß",
    "lächel",
    "kuschel",
    "teddy",
  ],
  milestone: [
    "first",
    "birthday",
    "wedding",
    "born",
    "graduat",
    "finally",
    "never forget",
    "remember",
    "primer",
    "primera",
    "cumpleaños",
    "nació",
    "boda",
    "recuerdo",
    "nunca olvid",
    "erste",
    "ersten",
    "geburtstag",
    "hochzeit",
    "geboren",
    "erinner",
    "nie vergess",
  ],
  excitement: [
    "amazing",
    "excited",
    "wow",
    "huge",
    "surprise",
    "adventure",
    "won",
    "incredible",
    "jumped",
    "screamed",
    "fast",
    "increíble",
    "sorpresa",
    "aventura",
    "ganaste",
    "emocion",
    "saltaste",
    "toll",
    "aufgeregt",
    "überrasch",
    "abenteuer",
    "gewonnen",
    "unglaublich",
    "riesig",
  ],
} as const;

/** Month names, for the date tag a transcript with too few topics gets. */
export const MONTHS: Record<LocalLanguage, string[]> = {
  en: [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
  ],
  es: [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
  ],
  de: [
    "januar",
    "februar",
    "märz",
    "april",
    "mai",
    "juni",
    "juli",
    "august",
    "september",
    "oktober",
    "november",
    "dezember",
  ],
};

/** The last tag when even the date leaves one missing. */
export const FAMILY_TAG: Record<LocalLanguage, string> = {
  en: "family",
  es: "familia",
  de: "familie",
};

/** Tags for what kind of memory it is, used before a date when the topics run out. */
export const KIND_TAGS: Record<
  LocalLanguage,
  Record<"milestone" | "funny" | "sad" | "love", string>
> = {
  en: { milestone: "milestones", funny: "funny moments", sad: "remembering", love: "love" },
  es: { milestone: "primeras veces", funny: "momentos divertidos", sad: "recuerdos", love: "amor" },
  de: { milestone: "meilensteine", funny: "lustige momente", sad: "erinnerungen", love: "liebe" },
};

/** A sentence that already says the closing's words ("I love you", "te quiero"). */
export const SAYS_LOVE: Record<LocalLanguage, RegExp> = {
  en: /\blove you\b/i,
  es: /\bte (quiero|amo)\b/i,
  de: /\b(hab\w* dich\b.*\blieb|liebe dich\b)/i,
};

/** The warm closing line of a summary, in the recorder's voice. */
export const CLOSINGS: Record<LocalLanguage, { warm: string; sad: string; funny: string }> = {
  en: {
    warm: "I love you so much.",
    sad: "Even on the hard days, I love you.",
    funny: "You make me laugh, and I love you.",
  },
  es: {
    warm: "Te quiero muchísimo.",
    sad: "Incluso en los días difíciles, te quiero.",
    funny: "Me haces reír, y te quiero.",
  },
  de: {
    warm: "Ich hab dich so lieb.",
    sad: "Auch an schweren Tagen hab ich dich lieb.",
    funny: "Du bringst mich zum Lachen, und ich hab dich lieb.",
  },
};

/** Spanish verb endings (past and gerund forms) that are never a topic. */
export const ES_VERB_ENDING =
  /(aba|abas|ábamos|aban|aron|ieron|imos|amos|aste|iste|íste|ando|iendo|ó)$/;
/** Spanish forms of "haber": the word after them is a participle ("hemos ido"). */
export const ES_HABER = words("he has ha hemos han había habías habíamos habían");

/** Adjectives that say how big or good, not what: dropped from the front of a tag. */
export const WEAK_MODIFIERS = words(`
  little big huge great good nice whole other same new very lovely beautiful best real small
  pequeño pequeña grande bonito bonita gran buen buena mejor favorito favorita enorme kleine
  kleinen kleiner großen große großer großes schöne schönen schöner ganze ganzen tolle tollen
  riesig riesige riesigen riesiges riesiger single every
`);

/** Scores of how much a text reads like each language (function words and letters it uses). */
export function detectLanguage(text: string): LocalLanguage {
  const tokens = text.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)?/gu) ?? [];
  const score: Record<LocalLanguage, number> = { en: 0, es: 0, de: 0 };
  for (const token of tokens) {
    for (const language of LOCAL_LANGUAGES) {
      if (STOP_WORDS[language].has(token)) score[language] += 1;
    }
  }
  // Letters only one of the languages uses settle close calls ("die" is English and German).
  score.es += 2 * (text.match(/[ñ¿¡áéíóú]/gi)?.length ?? 0);
  score.de += 2 * (text.match(/[äöüß]/gi)?.length ?? 0);
  let best: LocalLanguage = "en";
  for (const language of LOCAL_LANGUAGES) {
    if (score[language] > score[best]) best = language;
  }
  return best;
}
