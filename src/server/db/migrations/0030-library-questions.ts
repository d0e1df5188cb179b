import type { Kysely } from "kysely";
import { libraryQuestion } from "../../i18n/questions";
import type { DialectMigration } from "../migrate";

interface QuestionColumn {
  memories: { question: string | null };
}

/**
 * A built-in question answered through a page in another language was kept in that language's
 * words; it is kept as the library's own (English) words now, which each reader's page puts in
 * their language. One read of the distinct questions, then one update per question to change.
 */
export const libraryQuestions: DialectMigration = {
  async up(untyped: Kysely<unknown>) {
    const db = untyped as Kysely<QuestionColumn>;
    const asked = await db
      .selectFrom("memories")
      .select("question")
      .distinct()
      .where("question", "is not", null)
      .execute();
    for (const { question } of asked) {
      if (question === null) continue;
      const own = libraryQuestion(question);
      if (own === question) continue;
      await db
        .updateTable("memories")
        .set({ question: own })
        .where("question", "=", question)
        .execute();
    }
  },
};
