import {
  FAMILY_QUESTION_MAIL,
  FAMILY_QUESTION_NEWS,
  INVITATION_MAIL,
  QUESTION_MAIL,
  RECORDING_CARD,
  REPLIES_MAIL,
} from "../journal-mails";
import { MAIL_WORDS, REMINDER_MAIL, RESET_MAIL, SHARE_LINK_MAIL } from "../mail-words";
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
  FAMILY_QUESTION_NEWS,
  REPLIES_MAIL,
  QUESTION_MAIL,
  MAIL_WORDS,
  RESET_MAIL,
  REMINDER_MAIL,
  SHARE_LINK_MAIL,
};
export type Catalogues = typeof ALL_CATALOGUES;
