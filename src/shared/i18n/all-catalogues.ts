import { FAMILY_QUESTION_MAIL, INVITATION_MAIL, RECORDING_CARD } from "../journal-mails";
import { BACKUP_INDEX, MEMORY_BOOK_PDF } from "../messages";
import { APP_CATALOGUES } from "./catalogues";

/**
 * Every catalogue: the browser's and the server's own (mails, the book, the card, the backup's
 * page), which never ship to the browser. Tests and the server read this one.
 */
export const ALL_CATALOGUES = {
  ...APP_CATALOGUES,
  MEMORY_BOOK_PDF,
  BACKUP_INDEX,
  INVITATION_MAIL,
  RECORDING_CARD,
  FAMILY_QUESTION_MAIL,
};
export type Catalogues = typeof ALL_CATALOGUES;
