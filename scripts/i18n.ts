// Translators' tool. `npm run i18n` lists, per language, the words missing from its file
// (src/shared/i18n/locales/<lang>.json), those English no longer has, and those whose values
// ({name}, {count, plural, ...}) differ from English's. `npm run i18n -- english` prints every
// English word, shaped as a language file is; `npm run i18n -- todo es` prints the English of what Spanish lacks.
import { readFileSync } from "node:fs";
import { ALL_CATALOGUES } from "../src/shared/i18n/all-catalogues";
import { flatten, translationProblems } from "../src/shared/i18n/check";
import { LANGUAGES, SOURCE_LANGUAGE } from "../src/shared/i18n/languages";

const [command, language] = process.argv.slice(2);
const fileOf = (lang: string) =>
  JSON.parse(
    readFileSync(new URL(`../src/shared/i18n/locales/${lang}.json`, import.meta.url), "utf8"),
  );

if (command === "english") {
  process.stdout.write(`${JSON.stringify(ALL_CATALOGUES, null, 2)}\n`);
} else if (command === "todo" && language) {
  const { missing, mismatched } = translationProblems(ALL_CATALOGUES, fileOf(language));
  const english = flatten(ALL_CATALOGUES);
  const todo = Object.fromEntries(
    [...missing, ...mismatched].map((path) => [path, english.get(path)]),
  );
  process.stdout.write(`${JSON.stringify(todo, null, 2)}\n`);
} else {
  let complete = true;
  for (const lang of LANGUAGES.filter((l) => l !== SOURCE_LANGUAGE)) {
    const { missing, extra, mismatched } = translationProblems(ALL_CATALOGUES, fileOf(lang));
    complete &&= missing.length + extra.length + mismatched.length === 0;
    process.stdout.write(
      `${lang}: ${missing.length} missing, ${extra.length} extra, ${mismatched.length} with other values\n`,
    );
    for (const path of [
      ...missing.map((p) => `  missing ${p}`),
      ...extra.map((p) => `  extra ${p}`),
      ...mismatched.map((p) => `  values ${p}`),
    ].slice(0, 40)) {
      process.stdout.write(`${path}\n`);
    }
  }
  process.exitCode = complete ? 0 : 1;
}
