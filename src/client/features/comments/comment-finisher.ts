import { MESSAGES } from "../../../shared/messages";
import { commentSchema } from "../../../shared/schemas";
import { toast, toastError } from "../../components/ui/use-toast";
import { ApiError, errorMessage, requestJson } from "../../lib/api-client";
import { type Finisher, PermanentError } from "../../lib/upload-queue";
import { commentsPath } from "./api/comments";

export interface CommentMeta {
  memoryId: string;
  commenterName: string;
}

/** After a spoken comment's audio is uploaded: create the comment; the server transcribes it. */
export const finishComment: Finisher = async (upload) => {
  const meta = upload.meta as CommentMeta;
  try {
    const comment = await requestJson("POST", commentsPath(meta.memoryId), commentSchema, {
      commenterName: meta.commenterName,
      audioUrl: upload.url,
    });
    toast({ title: MESSAGES.commentAdded });
    return comment;
  } catch (error) {
    toastError(MESSAGES.failedCreateComment, error);
    // The server refused it (gone, private, bad name): trying again cannot help.
    if (
      error instanceof ApiError &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 429
    ) {
      throw new PermanentError(errorMessage(error));
    }
    throw error;
  }
};
