/**
 * What the local text model knows about each language it writes in: function words, fillers,
 * the words it uses itself, and small lexicons for scoring. The product's seven languages, by
 * their ISO 639-1 codes as the speech engine reports them: English, Spanish, French, German,
 * Portuguese (written as in Brazil), Chinese (Simplified) and Arabic.
 */

export const LOCAL_LANGUAGES = ["en", "es", "fr", "de", "pt", "zh", "ar"] as const;
export type LocalLanguage = (typeof LOCAL_LANGUAGES)[number];

export function isLocalLanguage(code: string): code is LocalLanguage {
  return (LOCAL_LANGUAGES as readonly string[]).includes(code);
}

const words = (text: string) => new Set(text.trim().split(/\s+/));

/**
 * Function words (and very common verbs) of each language: never a topic. Tag candidates are
 * checked against every list, so "zum" or "hoy" in a mixed transcript never becomes a tag.
 * Chinese words are as Intl.Segmenter cuts them ("我们", "但是", "你在"); Arabic ones without
 * their vowel marks.
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
  fr: words(`
    à a ai as au aux avait avais avaient avant avec avez avions avons ayant bah beaucoup ben bien bon
    ça ce ceci cela celle celui ces cet cette chaque chez ci comme comment dans de des depuis deux
    dit disait donc dont du elle elles en encore entre es est et étaient était étais étions été être
    eu eux fait faisait faire fais fois font ici il ils j je jamais jusqu l la là le les leur leurs lui
    m ma mais me même mes moi mon n ne ni non nos notre nous on ont ou où oui par parce pas peu peut
    plus pour pourquoi puis qu quand que quel quelle quelque qui quoi s sa sans se ses si son sont
    sous suis sur t ta te tes toi ton toujours tous tout toute toutes très trop tu un une vers voilà
    vous vraiment y alors après aussi aujourd hui hier demain soir matin jour jours chose choses
    allé allée allés allées aller va vais vas allait allions venu venue venait vu vue voir savoir
    sais sait savais dire dis disais veux voulait voulais pouvait pouvais fallait faut tellement
    assez ensuite enfin déjà rien tout personne trois quatre cinq six sept huit neuf dix mettait
    pense pensais crois croyais regardant regardait mangeait mangé mange passais passait près loin
    partout souvent devant derrière midi
  `),
  pt: words(`
    a à ao aos aquela aquele aquilo as às até bem cada com como da das de dela dele deles depois do
    dos e é ela elas ele eles em entre era eram essa esse isso esta está estava estavam estou eu
    foi fomos for foram há isso já la lá lhe mais mas me mesmo meu meus minha minhas muita muito
    muitos na nas não nem no nos nós nossa nosso num numa o os ou para pela pelo por porque pra
    quando que quem se sem ser seu seus sempre só sua suas também tão te tem tinha tinham tínhamos
    toda todas todo todos tu um uma umas uns você vocês vai vou ia íamos ir ver vi viu fazer fez
    fiz fazia ficava ficou ter teve tive aí então daí hoje ontem amanhã dia dias vez vezes coisa
    coisas gente né tá tava estávamos agora ainda aqui ali lembro disse falou dizia sabe acho quero
    queria pode podia dois duas três quatro cinco seis sete oito nove dez olha olhando tipo assim
    manhã tarde noite antes
  `),
  zh: words(`
    的 了 着 过 是 在 有 和 跟 与 也 都 就 还 又 很 太 真 最 不 没 没有 别 吗 呢 吧 啊 呀 嘛 哦 我 你
    他 她 它 我们 你们 他们 她们 咱们 自己 这 那 这个 那个 这些 那些 这里 那里 这样 那样 什么 怎么
    为什么 哪 哪里 谁 一个 一些 一下 一起 一边 一直 一样 每 每个 每次 每个人 个 只 把 被 给 对
    从 到 向 往 为 让 叫 说 看 想 要 会 能 可以 去 来 回 做 吃 走 跑 带 教 包 笑 哭 放 捂 看到
    知道 觉得 记得 想起 喜欢 开始 还是 就是 但是 可是 所以 因为 然后 后来 之后 以后 以前 那么
    其实 反正 不过 而且 如果 虽然 已经 正在 一定 非常 特别 真的 好像 总是 永远 现在 今天 昨天
    明天 今晚 昨晚 早上 晚上 下午 中午 时候 去年 今年 上周 周末 小时候 好多 很多 那天 这天 当时
    我的 你的 他的 她的 你在 我在 他在 她在 都去 都会 都是 也是 就是 还有 没想到 一点 有点
    出来 起来 下来 上来 过来 回来 回去 告诉 问 说了 听 听到 看着 想看 真为 得 地 第 里 上 下
    中 前 后 外 边 却 很小 最好 这么 那么 多么 几个 两个 三个 迈出 松开 走向 鼓掌 激动 收到
    摇晃 害怕 骄傲 开心 高兴 难过 喜欢 爱 好 大 小 多 少 对了 跑来 跑去 走来 走去
  `),
  ar: words(`
    في من إلى الى على عن مع هذا هذه ذلك تلك هنا هناك هو هي هم هن نحن أنا انا أنت انت أنتم انتم
    كان كانت كنت كنا كانوا يكون تكون أن ان إن لا لم لن ما ماذا متى أين اين كيف لماذا كل بعض قد
    لقد ثم أو او لكن لأن لان حتى عند عندما لما إذا اذا كما بعد قبل بين فوق تحت أي الذي التي الذين
    هل نعم يا يعني طيب بس جدا جدًا كثيرا كثيرًا كثير اليوم أمس امس البارحة غدا الآن الان دائما
    دائمًا أيضا أيضًا فقط مرة كذلك لي لك له لها لنا لهم بي بك به بها بنا بهم معي معك معه معها معنا
    عليه عليها علي عليك إليه منه منها منك فيه فيها وكان وكانت وكنت وكنا ومن وفي وعلى وإلى وهو وهي
    ولكن وأنا ونحن وأنت ولم ولا وما وقد وبعد وعندما وكل فكان فكانت الي ذهبنا ذهبت قالت قال قلت
    أصبح صار أريد أعرف اعرف أتذكر اتذكر أذكر ذكرى واحد اثنين ثلاثة أربعة خمسة ستة سبعة ثمانية
    تسعة عشرة شيء أشياء حين حينما بينما وأنت وبعدين بعدين كلما جميعًا جميعا معًا معا الماضي
    الماضية القادم كله كلها
  `),
};

/** Any language's stop word: the union of the lists above. */
export function isStopWord(word: string): boolean {
  return LOCAL_LANGUAGES.some((language) => STOP_WORDS[language].has(word));
}

/** Sounds that carry nothing (removed from the summary and never a topic). */
export const FILLERS: Record<LocalLanguage, Set<string>> = {
  en: words("um umm uh uhh erm er hmm mm mhm"),
  es: words("eh em mm mmm"),
  // Not "er": in German it is "he".
  de: words("äh ähm öhm hm hmm mhm"),
  fr: words("euh heu hum hmm mm mhm"),
  pt: words("hum hmm ahn éé ãh mm"),
  zh: words("嗯 呃 额 唔"),
  ar: words("امم اممم ممم اه"),
};

/** Words that are dates, not topics (month names are in MONTHS). */
export const WEEKDAYS = words(`
  monday tuesday wednesday thursday friday saturday sunday lunes martes miércoles jueves viernes
  sábado domingo montag dienstag mittwoch donnerstag freitag samstag sonntag lundi mardi mercredi
  jeudi vendredi samedi dimanche mercredis dimanches segunda terça quarta quinta sexta 星期一 星期二
  星期三 星期四 星期五 星期六 星期天 星期日 周一 周二 周三 周四 周五 周六 周日 الاثنين الثلاثاء
  الأربعاء الخميس الجمعة السبت الأحد جمعة
`);

/** Nouns too vague to say what a memory is about. */
export const VAGUE_NOUNS = words(`
  world place end side front top part rest couple ages everyone everybody someone people person
  mundo lado parte resto gente persona año años welt seite teil rest leute person mal jahr jahre
  jahren monde côté partie reste gens fois année années coisa pessoa pessoas ano anos 时候 东西 事情
  地方 大家 人们 样子 人生 العالم الناس الوقت الشيء المرة السنة الجميع
`);

/** Words that open a sentence without adding to it ("So, ...", "And then ..."). */
export const LEADING_FILLERS: Record<LocalLanguage, Set<string>> = {
  en: words("and so well okay ok oh but anyway like alright right then"),
  es: words("y pues bueno entonces oye mira pero luego"),
  // Not "also" or time words: German puts the verb second, so dropping them breaks the sentence.
  de: words("und na ja naja okay"),
  fr: words("et alors donc bon ben bah euh puis mais enfin bref voilà"),
  pt: words("e então entao bom bem pois aí daí mas olha né"),
  zh: words("那么 然后 就是 所以 反正 其实 那 嗯 好吧"),
  ar: words("ثم يعني طيب إذن اذن المهم لكن بس"),
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
  fr: [
    "aujourd'hui",
    "hier soir",
    "hier",
    "ce matin",
    "cet aprèsmidi",
    "ce soir",
    "cette semaine",
    "la semaine dernière",
    "l'été dernier",
    "cet été",
    "l'année dernière",
    "cette année",
  ],
  pt: [
    "hoje de manhã",
    "hoje cedo",
    "hoje à tarde",
    "hoje à noite",
    "ontem à noite",
    "hoje",
    "ontem",
    "esta manhã",
    "no ano passado",
    "ano passado",
  ],
  // As Intl.Segmenter cuts them.
  zh: [
    "今天 早上",
    "今天 晚上",
    "今天",
    "昨天晚上",
    "昨天",
    "今晚",
    "昨晚",
    "上周",
    "去年",
    "今年",
  ],
  ar: ["صباح اليوم", "اليوم صباحًا", "اليوم صباحا", "اليوم", "أمس", "امس", "البارحة", "الليلة"],
};

/** Conjunctions that start a new sentence only when a subject follows ("and we", not "and a"). */
export const BARE_AND = words("and y und et e");

/** Subjects after which an English leading time word can go ("Today we went" -> "We went"). */
export const EN_SUBJECTS = words(
  "i we you he she they it my your our his her their mom dad mommy daddy grandma grandpa",
);

/**
 * Languages whose sentences need their subject: a leading time word is dropped from a title only
 * before one of these ("Hier, tu as ..." -> "Tu as ...", but "Hier était ..." stays; "今天你..."
 * -> "你...", but "今天是..." stays). Spanish, Portuguese and Arabic leave the subject out anyway,
 * and German keeps its time words (verb second).
 */
export const SUBJECTS: Partial<Record<LocalLanguage, Set<string>>> = {
  en: EN_SUBJECTS,
  // "j'ai" is checked by its "j".
  fr: words("j je tu il elle on nous vous ils elles ta ton tes mon ma mes papa maman mamie papi"),
  zh: words("我 我们 你 你们 他 她 他们 她们 咱们 爸爸 妈妈 奶奶 爷爷 外婆 外公 姥姥 你在 我在"),
};

/** Words that let an unpunctuated transcript be cut into sentences before them. */
export const SENTENCE_STARTERS: Record<LocalLanguage, string[]> = {
  en: ["and then", "and so", "so", "then", "but", "after that", "anyway", "and"],
  es: ["y luego", "y entonces", "entonces", "luego", "después", "pero", "y"],
  de: ["und dann", "dann", "danach", "aber", "und"],
  fr: ["et puis", "et après", "et alors", "et ensuite", "alors", "puis", "ensuite", "mais", "et"],
  pt: ["e depois", "e então", "e aí", "então", "depois", "aí", "mas", "e"],
  zh: ["然后", "后来", "接着", "但是", "可是", "之后"],
  ar: ["وبعدين", "وبعدها", "بعدين", "ثم", "ولكن", "لكن"],
};

/** People a memory is often about; said with "your" in English ("your grandpa"). */
export const FAMILY_WORDS = words(`
  mom mum mommy mummy mama dad daddy papa grandma grandpa granny grandmother grandfather nana nan
  sister brother aunt uncle cousin baby family mamá papá abuela abuelo abuelos abuelita abuelito
  hermana hermano tía tío prima primo bebé familia mutter vater mama papa oma opa großmutter
  großvater schwester bruder tante onkel cousine baby familie maman mamie papi mamy papy mémé pépé
  mère père sœur frère oncle cousin famille mãe pai vovó vovô avó avô irmã irmão tia tio prima
  primo bebê família 妈妈 爸爸 奶奶 爷爷 外婆 外公 姥姥 姥爷 姐姐 哥哥 妹妹 弟弟 阿姨 叔叔 宝宝
  家人 جدتي جدي جدتك جدك جدتنا جدنا تيتا ستي جدو أمي امي أبي ابي ماما بابا أمك ابوك أبوك خالتي
  عمتي خالي عمي أخي أختي خالتك عمتك خالك عمك أعمامك العائلة
`);

/**
 * Lexicons for the scores, every language together: matched by a word's start, Chinese and
 * Arabic ones anywhere in a word.
 */
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
    "aime",
    "amour",
    "câlin",
    "bisou",
    "fier",
    "fière",
    "cœur",
    "amo",
    "abraço",
    "beijo",
    "orgulho",
    "coração",
    "爱",
    "骄傲",
    "拥抱",
    "亲了",
    "أحب",
    "احب",
    "حب",
    "فخور",
    "حضن",
    "قلب",
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
    "pleur",
    "larmes",
    "manque",
    "mort",
    "décédé",
    "hôpital",
    "chorei",
    "chorou",
    "chorar",
    "saudade",
    "morreu",
    "faleceu",
    "难过",
    "伤心",
    "哭",
    "想念",
    "去世",
    "医院",
    "حزين",
    "بكي",
    "بكت",
    "دموع",
    "اشتقت",
    "توفي",
    "مات",
    "المستشفى",
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
    "rire",
    "riant",
    "rigol",
    "drôle",
    "blague",
    "risada",
    "rindo",
    "engraçad",
    "piada",
    "笑",
    "好玩",
    "有趣",
    "逗",
    "ضحك",
    "مضحك",
    "نكتة",
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
    "petit",
    "mignon",
    "sourire",
    "doudou",
    "pequen",
    "fofo",
    "fofa",
    "sorriso",
    "小狗",
    "可爱",
    "宝宝",
    "小手",
    "صغير",
    "لطيف",
    "ابتسام",
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
    "premier",
    "première",
    "anniversaire",
    "mariage",
    "souviens",
    "souvenir",
    "jamais oubli",
    "primeir",
    "aniversário",
    "casamento",
    "nasceu",
    "lembro",
    "nunca esque",
    "第一",
    "生日",
    "婚礼",
    "出生",
    "永远不会忘",
    "春节",
    "الأول",
    "عيد",
    "ميلاد",
    "زفاف",
    "أتذكر",
    "اتذكر",
    "لن أنسى",
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
    "incroyable",
    "aventure",
    "gagné",
    "énorme",
    "incrível",
    "surpresa",
    "ganhou",
    "enorme",
    "惊喜",
    "激动",
    "冒险",
    "兴奋",
    "鞭炮",
    "مفاجأة",
    "مغامرة",
    "رائع",
    "فزت",
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
  fr: [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
  ],
  pt: [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
  ],
  zh: [
    "一月",
    "二月",
    "三月",
    "四月",
    "五月",
    "六月",
    "七月",
    "八月",
    "九月",
    "十月",
    "十一月",
    "十二月",
  ],
  ar: [
    "يناير",
    "فبراير",
    "مارس",
    "أبريل",
    "مايو",
    "يونيو",
    "يوليو",
    "أغسطس",
    "سبتمبر",
    "أكتوبر",
    "نوفمبر",
    "ديسمبر",
  ],
};

/** The last tag when even the date leaves one missing. */
export const FAMILY_TAG: Record<LocalLanguage, string> = {
  en: "family",
  es: "familia",
  de: "familie",
  fr: "famille",
  pt: "família",
  zh: "家人",
  ar: "العائلة",
};

/** Tags for what kind of memory it is, used before a date when the topics run out. */
export const KIND_TAGS: Record<
  LocalLanguage,
  Record<"milestone" | "funny" | "sad" | "love", string>
> = {
  en: { milestone: "milestones", funny: "funny moments", sad: "remembering", love: "love" },
  es: { milestone: "primeras veces", funny: "momentos divertidos", sad: "recuerdos", love: "amor" },
  de: { milestone: "meilensteine", funny: "lustige momente", sad: "erinnerungen", love: "liebe" },
  fr: { milestone: "premières fois", funny: "fous rires", sad: "souvenirs", love: "amour" },
  pt: {
    milestone: "primeiras vezes",
    funny: "momentos engraçados",
    sad: "lembranças",
    love: "amor",
  },
  zh: { milestone: "重要时刻", funny: "趣事", sad: "怀念", love: "爱" },
  ar: { milestone: "لحظات مميزة", funny: "مواقف مضحكة", sad: "ذكريات", love: "حب" },
};

/** A sentence that already says the closing's words ("I love you", "te quiero"). */
export const SAYS_LOVE: Record<LocalLanguage, RegExp> = {
  en: /\blove you\b/i,
  es: /\bte (quiero|amo)\b/i,
  de: /\b(hab\w* dich\b.*\blieb|liebe dich\b)/i,
  fr: /(?<!\p{L})t['’]aime(?!\p{L})/iu,
  pt: /(?<!\p{L})(te amo|amo você|amo vocês|te adoro)(?!\p{L})/iu,
  zh: /爱你/u,
  // With "and" written onto it: "وأحبك".
  ar: /(?<!\p{L})[وف]?(أحبك|احبك|بحبك)(?!\p{L})/u,
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
  fr: {
    warm: "Je t'aime très fort.",
    sad: "Même dans les jours difficiles, je t'aime.",
    funny: "Tu me fais tellement rire, et je t'aime.",
  },
  pt: {
    warm: "Eu te amo muito.",
    sad: "Mesmo nos dias difíceis, eu te amo.",
    funny: "Você me faz rir, e eu te amo muito.",
  },
  zh: {
    warm: "我非常爱你。",
    sad: "就算在难过的日子里，我也一样爱你。",
    funny: "你总能逗我笑，我爱你。",
  },
  ar: {
    warm: "أحبك كثيرًا.",
    sad: "حتى في الأيام الصعبة، أحبك.",
    funny: "أضحك معك دائمًا، وأحبك كثيرًا.",
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
  riesig riesige riesigen riesiges riesiger single every petit petite petits petites grande grandes
  beau belle bon bonne gros grosse énorme pequena pequeno grandes lindo linda الكبير الكبيرة الصغير
  الصغيرة الجميل الجميلة الجديد الجديدة الجديدة الأول الأولى
`);

/** Ordinals that make a topic with the noun they go with ("premiers pas"), never one alone. */
export const NEVER_ALONE = words(`
  premier premiers première premières primeiro primeiros primeira primeiras primero primeros
  primera primeras dernier dernière último última
`);

/** French verb endings (imperfect, simple past, future) that are never a topic. */
export const FR_VERB_ENDING = /(aient|ait|ais|ions|iez|èrent|âmes|erons|erez|eront|erai|era)$/;
/** French forms of "avoir" and "être": the word after them is a participle ("a mangé"). */
export const FR_AUXILIARY = words(
  "ai as a avons avez ont avait avais avions aviez avaient suis es est sommes êtes sont étais était étions étaient",
);
/** Portuguese verb endings (past, imperfect and gerund forms) that are never a topic. */
export const PT_VERB_ENDING =
  /(ava|avas|ávamos|avam|aram|eram|iram|amos|emos|imos|ou|eu|iu|ando|endo|indo|aste|este|iste)$/;
/** Portuguese forms of "ter" and "haver": the word after them is a participle ("tinha feito"). */
export const PT_AUXILIARY = words("tenho tem temos têm tinha tinham tínhamos havia haviam");

/**
 * Chinese words that are not topics whatever the lists say: ones that start with a function
 * character ("很小", "都去", "不会"), end in an aspect particle ("吃了", "炖着"), or are numbers
 * with a measure word ("十二个", "一只").
 */
export const ZH_NOT_TOPIC =
  /^[很都也就还又不没别太真最是会要能把被给和跟从到对你我他她它的一二三四五六七八九十两几第每这那]|[了着过的地得吗呢吧啊呀]$/u;

/**
 * Arabic writes "and", "so" and the prepositions "in/with", "for", "like" onto the next word
 * ("والمطبخ", "بالطحين", "للمدرسة"); the definite article "ال" marks a noun (or its adjective).
 * The parts of a word: `form` with the article kept but the clitics off ("المطبخ"), `core` without
 * the article, its alef forms made one ("مطبخ"), and whether it was definite.
 */
export function arabicParts(word: string): { form: string; core: string; definite: boolean } {
  const plain = word.replace(/[\p{M}ـ]/gu, "");
  const match = /^(?:[وف])?(?:[بك])?(ال|لل)(\p{L}{2,})$/u.exec(plain);
  if (match) {
    const core = (match[2] ?? "").replace(/[أإآ]/g, "ا");
    return { form: `ال${match[2]}`, core, definite: true };
  }
  const bare = /^[وف](\p{L}{3,})$/u.exec(plain);
  const form = bare && STOP_WORDS.ar.has(bare[1] ?? "") ? (bare[1] ?? plain) : plain;
  return { form, core: form.replace(/[أإآ]/g, "ا"), definite: false };
}

/** Letters only one of the Latin-script languages uses: they settle close calls. */
const OWN_LETTERS: Partial<Record<LocalLanguage, RegExp>> = {
  es: /[ñ¿¡]/gi,
  de: /[äöüß]/gi,
  fr: /[èùœëïîûæ]|\b(?:[jlcdnqst]|qu)['’]\p{L}/giu,
  pt: /[ãõ]|ção\b|ções\b/gi,
};

/**
 * The transcript's language. Chinese and Arabic by their script (a few Latin names do not
 * change it); the others by how many of each one's function words the text uses, with letters
 * only one of them writes (ñ, ß, è, ã) and French elisions ("j'ai", "c'est") settling close calls.
 */
export function detectLanguage(text: string): LocalLanguage {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const arabic = text.match(/\p{Script=Arabic}/gu)?.length ?? 0;
  if (letters > 0 && han / letters > 0.3) return "zh";
  if (letters > 0 && arabic / letters > 0.3) return "ar";
  const tokens = text.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)?/gu) ?? [];
  const score: Record<LocalLanguage, number> = { en: 0, es: 0, fr: 0, de: 0, pt: 0, zh: 0, ar: 0 };
  const latin = ["en", "es", "fr", "de", "pt"] as const;
  for (const token of tokens) {
    for (const language of latin) {
      if (STOP_WORDS[language].has(token)) score[language] += 1;
    }
  }
  for (const language of latin) {
    score[language] += 2 * (text.match(OWN_LETTERS[language] ?? /$^/g)?.length ?? 0);
  }
  let best: LocalLanguage = "en";
  for (const language of latin) {
    if (score[language] > score[best]) best = language;
  }
  return best;
}
