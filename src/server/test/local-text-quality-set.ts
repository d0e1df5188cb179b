import type { LocalLanguage } from "../ai/local-text/languages";

/**
 * Realistic transcripts of the memories families record, for the local text model's quality test
 * (local-text-quality.test.ts): birthdays, first words and steps, trips, grandparents' stories,
 * sad and funny ones, one line and long rambling ones, unpunctuated engine output, names and
 * numbers, in each of the product's seven languages (a grandmother's kitchen in every one).
 * `kind` says what the scores should make of it.
 */
export interface QualityCase {
  name: string;
  language: LocalLanguage;
  kind: "noise" | "one-line" | "story";
  transcript: string;
}

export const QUALITY_SET: QualityCase[] = [
  {
    name: "first steps",
    language: "en",
    kind: "story",
    transcript:
      "This morning you took your very first steps in the kitchen. You held onto the chair, let go, and walked three wobbly steps to your dad. We all cheered and you clapped your little hands. Your dad cried a little. I am so proud of you.",
  },
  {
    name: "first word",
    language: "en",
    kind: "one-line",
    transcript: "You said your very first word today. It was doggy!",
  },
  {
    name: "fifth birthday fort",
    language: "en",
    kind: "story",
    transcript:
      "It was your fifth birthday and it rained all day, so we built a blanket fort in the living room, ate chocolate cake inside it and read dinosaur books until you fell asleep.",
  },
  {
    name: "beach with grandpa",
    language: "en",
    kind: "story",
    transcript:
      "Today we went to the beach with Grandpa. You built a huge sandcastle and laughed from ear to ear! Grandpa helped you dig a moat around the sandcastle. I will never forget how happy you were.",
  },
  {
    name: "pancakes",
    language: "en",
    kind: "story",
    transcript:
      "Sunday pancakes are your favourite thing in the world. You stirred the batter yourself and got flour all over your nose. You ate four pancakes, one shaped like a bear, and asked for another pancake for your teddy.",
  },
  {
    name: "grandma's war story",
    language: "en",
    kind: "story",
    transcript:
      "Um, so this is a story my grandmother Rosa told me when I was about your age, and I want you to have it. She grew up on a farm outside Naples during the war, and there was never enough food, so every morning she walked two miles to the village with her little brother Enzo to trade eggs for bread. One winter morning the bridge over the river had been bombed, and she carried Enzo on her back across the freezing water because she was scared they would go home with nothing. She told me she cried the whole way, but she never let go of the eggs. When she was ninety she still laughed about it, and she always said that the bread tasted better that day than any bread since. She came to America in 1952 with one suitcase and a photo of that farm, and that photo is on our wall now. Whenever you look at it I want you to remember how brave she was, and that you come from people who keep going. I love you, and she would have loved you so much.",
  },
  {
    name: "lost tooth",
    language: "en",
    kind: "story",
    transcript:
      "You lost your first tooth tonight while eating an apple! You were so excited that you ran around the house showing everyone the gap. We put the tooth under your pillow and you wrote a note to the tooth fairy asking if she has a dog.",
  },
  {
    name: "hospital and grandpa",
    language: "en",
    kind: "story",
    transcript:
      "This is a hard one to record. Grandpa Joe died last night in the hospital. You visited him on Tuesday and drew him a picture of his old red truck, and he kept it on his blanket all day. I miss him so much already. I want you to know how much he loved you and how he called you his little shadow.",
  },
  {
    name: "silly bath",
    language: "en",
    kind: "story",
    transcript:
      "You put bubbles on your chin and said you were Santa, then you made the rubber duck sing a silly song about broccoli. We laughed so hard that the bath water went cold.",
  },
  {
    name: "trip to Lisbon, unpunctuated",
    language: "en",
    kind: "story",
    transcript:
      "so we got to lisbon really late and you were asleep in the car seat and then in the morning we took the old yellow tram up the hill and you waved at every single person and then we had those custard tarts pastel de nata and you got cream all over your face and then we walked down to the river and watched the boats and you said the bridge looked like the one in san francisco from your book and then you fell asleep on my shoulder on the tram back",
  },
  {
    name: "zoo rambling",
    language: "en",
    kind: "story",
    transcript:
      "Okay so, um, the zoo. Where do I start. We got there and it was raining a bit, and you did not care at all, you just wanted the penguins. So we went to the penguins first, and the keeper was feeding them fish, and one penguin stole a fish from another penguin and you shouted that's not fair! Then we saw the giraffes, and the giraffe bent its long neck right down to look at you, and you went completely quiet. Then lunch, which was chips, obviously. Then the reptile house, which you hated, and the butterfly house, which you loved, because a blue butterfly landed on your hat and stayed there for ages. On the way home you told me the giraffe was your friend now and her name is Lettuce.",
  },
  {
    name: "noise",
    language: "en",
    kind: "noise",
    transcript: "the the beach we are on the oldest on fossil",
  },
  {
    name: "hello",
    language: "en",
    kind: "noise",
    transcript: "hello",
  },
  {
    name: "garden with nana",
    language: "en",
    kind: "story",
    transcript:
      "Nana showed you how to plant tomato seeds in little pots on the windowsill. You watered them every single morning for three weeks and checked them with your magnifying glass. When the first green shoots came up you ran to phone Nana and tell her.",
  },
  {
    name: "bike",
    language: "en",
    kind: "story",
    transcript:
      "You rode your bike without training wheels for the first time at the park! Your cousin Maya ran behind you the whole way, and when you reached the big oak tree you shouted look at me, look at me!",
  },
  {
    name: "new sister",
    language: "en",
    kind: "story",
    transcript:
      "Your baby sister Lily came home from the hospital today. You held her on the sofa with a pillow under your arm and sang her the moon song. You told me she smells like bread. I love watching you be a big brother.",
  },
  {
    name: "snow day",
    language: "en",
    kind: "one-line",
    transcript: "First snow of the year, you caught snowflakes on your tongue for an hour.",
  },
  {
    name: "cumpleaños",
    language: "es",
    kind: "story",
    transcript:
      "Hoy cumpliste seis años y la abuela Carmen preparó tu tarta de chocolate favorita. Soplaste las velas de un solo soplo y pediste un deseo en secreto. Después jugamos en el jardín con tus primos hasta que se hizo de noche. Te quiero muchísimo, mi vida.",
  },
  {
    name: "primeros pasos",
    language: "es",
    kind: "story",
    transcript:
      "Esta mañana diste tus primeros pasos en la cocina. Te soltaste de la silla y caminaste hasta los brazos de papá. Todos aplaudimos y tú te reíste muchísimo. Estoy muy orgullosa de ti.",
  },
  {
    name: "el abuelo y el mar",
    language: "es",
    kind: "story",
    transcript:
      "Tu abuelo Manuel era pescador en Cádiz. Cada verano te llevaba en su barca pequeña y te enseñaba a pescar con una caña de bambú. Una vez pescaste un pez enorme y el abuelo gritó tanto que toda la playa se dio la vuelta. Lo extraño mucho, pero cuando veo el mar me acuerdo de él.",
  },
  {
    name: "Geburtstag",
    language: "de",
    kind: "story",
    transcript:
      "Heute bist du vier Jahre alt geworden. Oma hat einen Schokoladenkuchen mit vier Kerzen gebacken und du hast alle auf einmal ausgepustet. Am Nachmittag waren wir im Zoo und du wolltest nur die Elefanten sehen. Ich hab dich so lieb.",
  },
  {
    name: "Urlaub am See",
    language: "de",
    kind: "story",
    transcript:
      "Im Urlaub am Bodensee bist du zum ersten Mal ganz allein geschwommen. Papa stand im Wasser und du bist vom Steg zu ihm gepaddelt. Danach gab es ein riesiges Eis und du hattest Schokolade bis zu den Ohren. Das war ein wunderschöner Tag.",
  },
  {
    name: "Opa erzählt",
    language: "de",
    kind: "story",
    transcript:
      "Opa Heinrich hat dir heute von seiner Kindheit auf dem Bauernhof erzählt. Er musste jeden Morgen um fünf Uhr die Kühe melken, bevor er zur Schule ging. Du hast gefragt, ob die Kühe Namen hatten, und er hat gelacht und gesagt, die Lieblingskuh hieß Berta.",
  },
  {
    name: "grandmother's kitchen",
    language: "en",
    kind: "story",
    transcript:
      "When I was a little girl I spent every Sunday in my grandmother's kitchen in Ohio. It always smelled of cinnamon and fresh bread. She let me roll out the dough for her apple pie, and I got flour all over the floor. We ate the pie warm on the back porch while the radio played. Every time I bake with you, I think of her.",
  },
  {
    name: "la cocina de la abuela",
    language: "es",
    kind: "story",
    transcript:
      "Cuando era pequeña pasaba los veranos en casa de mi abuela Pilar, en un pueblo de Asturias. Su cocina siempre olía a pan recién hecho y a café. Me enseñó a hacer croquetas y yo acababa con las manos llenas de harina. Comíamos en el patio bajo la parra mientras ella cantaba. Cada vez que cocino contigo me acuerdo de ella.",
  },
  {
    name: "Omas Küche",
    language: "de",
    kind: "story",
    transcript:
      "Als ich klein war, habe ich jeden Sonntag bei meiner Oma Gertrud verbracht. In ihrer Küche roch es immer nach Apfelkuchen und Zimt. Sie hat mir gezeigt, wie man den Teig knetet, und ich hatte überall Mehl. Danach haben wir den Kuchen warm auf der Terrasse gegessen. Jedes Mal, wenn ich mit dir backe, denke ich an sie.",
  },
  {
    name: "la cuisine de mamie",
    language: "fr",
    kind: "story",
    transcript:
      "Quand j'étais petite, je passais tous les mercredis chez ma grand-mère Yvonne. Sa cuisine sentait le beurre et la confiture d'abricots. Elle me laissait casser les œufs pour la pâte à crêpes, et j'en mettais toujours partout. Après, on mangeait les crêpes au sucre près de la fenêtre en regardant le jardin. Je pense à elle chaque fois que je fais des crêpes avec toi.",
  },
  {
    name: "premiers pas",
    language: "fr",
    kind: "story",
    transcript:
      "Ce matin, tu as fait tes premiers pas dans le salon. Tu t'es lâché du canapé et tu as marché jusqu'à papa en riant. On a tous applaudi, et mamie avait les larmes aux yeux. Je suis tellement fière de toi.",
  },
  {
    name: "à la plage avec papi",
    language: "fr",
    kind: "story",
    transcript:
      "alors hier on est allés à la plage avec papi et tu as construit un énorme château de sable et puis la mer est montée et elle a tout emporté et tu as ri tellement fort et après on a mangé des glaces à la fraise sur la digue",
  },
  {
    name: "mamie",
    language: "fr",
    kind: "one-line",
    transcript:
      "Tu as dit mamie pour la première fois aujourd'hui, en montrant sa photo sur le frigo.",
  },
  {
    name: "a cozinha da vovó",
    language: "pt",
    kind: "story",
    transcript:
      "Quando eu era pequena, passava as férias na casa da minha avó Lurdes, em Minas. A cozinha dela tinha um fogão a lenha e sempre cheirava a café fresquinho. Ela me ensinou a fazer pão de queijo, e eu ficava com as mãos cheias de polvilho. A gente comia tudo quentinho na varanda, olhando as galinhas no quintal. Toda vez que faço pão de queijo com você, lembro dela.",
  },
  {
    name: "primeiros passos",
    language: "pt",
    kind: "story",
    transcript:
      "Hoje de manhã você deu seus primeiros passos na sala. Você soltou o sofá e foi andando até o papai, rindo muito. Todo mundo bateu palmas e a vovó chorou de emoção. Estou muito orgulhosa de você.",
  },
  {
    name: "aniversário no quintal",
    language: "pt",
    kind: "story",
    transcript:
      "Ontem foi o seu aniversário de cinco anos e a festa foi no quintal da vovó. Teve bolo de chocolate com brigadeiro, e você assoprou as velinhas duas vezes porque o seu primo apagou antes. Depois vocês brincaram de pega-pega até escurecer.",
  },
  {
    name: "奶奶的厨房",
    language: "zh",
    kind: "story",
    transcript:
      "我小时候，每个周末都去奶奶家。奶奶的厨房很小，但是总是很暖和，锅里炖着红烧肉，满屋子都是香味。她教我包饺子，我包的饺子总是歪歪扭扭的，她却说是最好看的。现在我每次和你一起包饺子，都会想起奶奶。",
  },
  {
    name: "第一步",
    language: "zh",
    kind: "story",
    transcript:
      "今天早上你在客厅里迈出了人生的第一步。你松开沙发，摇摇晃晃地走向爸爸，一边走一边笑。我们都为你鼓掌，奶奶激动得哭了。我真为你骄傲。",
  },
  {
    name: "春节回老家",
    language: "zh",
    kind: "story",
    transcript:
      "去年春节我们回了老家。爷爷带你去放鞭炮，你捂着耳朵又害怕又想看。年夜饭的时候，你给每个人都说了新年快乐，还收到了好多红包。",
  },
  {
    name: "公园和小狗",
    language: "zh",
    kind: "story",
    transcript:
      "今天我们去了公园 你在草地上跑来跑去 然后你看到了一只小狗 你特别开心 一直追着它跑 小狗的主人是一位老奶奶 她让你摸了摸小狗的头 你笑得停不下来 后来下雨了 我们就躲在大树下面 等雨停了才回家",
  },
  {
    name: "مطبخ جدتي",
    language: "ar",
    kind: "story",
    transcript:
      "عندما كنت صغيرة، كنت أقضي كل يوم جمعة في بيت جدتي فاطمة. كان المطبخ صغيرًا، لكن رائحة الخبز الطازج والزعتر كانت تملأ البيت كله. علمتني جدتي كيف أعجن العجين وأصنع المناقيش، وكانت تضحك عندما يمتلئ وجهي بالطحين. كنا نأكل معًا على الشرفة ونشرب الشاي بالنعناع. كلما خبزت معك أتذكرها.",
  },
  {
    name: "الخطوات الأولى",
    language: "ar",
    kind: "story",
    transcript:
      "اليوم صباحًا مشيت خطواتك الأولى في غرفة الجلوس. تركت الكنبة ومشيت نحو بابا وأنت تضحك. صفقنا لك جميعًا، وبكت جدتك من الفرحة. أنا فخورة بك جدًا.",
  },
  {
    name: "العيد في الإسكندرية",
    language: "ar",
    kind: "story",
    transcript:
      "في العيد الماضي ذهبنا إلى بيت جدك في الإسكندرية. لبست ملابس العيد الجديدة وأخذت العيدية من كل أعمامك. ثم ذهبنا إلى البحر وأكلنا الآيس كريم على الكورنيش.",
  },
];
