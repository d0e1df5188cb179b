import { MESSAGES } from "../../../shared/messages";
import type { Comment } from "../../../shared/schemas";
import { toast } from "../../components/ui/use-toast";
import { ApiError, apiRequest, errorMessage } from "../../lib/api-client";
import { type Finisher, PermanentError, registerFinisher } from "../recorder/pending-uploads";
import { commentsPath } from "./api/comments";

export interface CommentMeta {
  memoryId: string;
  commenterName: string;
}

/** After a spoken comment's audio is uploaded: create the comment; the server transcribes it. */
export const finishComment: Finisher = async (upload) => {
  const meta = upload.meta as CommentMeta;
  try {
    const res = await apiRequest("POST", commentsPath(meta.memoryId), {
      commenterName: meta.commenterName,
      audioUrl: upload.url,
    });
    const comment = (await res.json()) as Comment;
    toast({ title: MESSAGES.commentAdded });
    return comment;
  } catch (error) {
    toast({
      title: MESSAGES.failedCreateComment,
      description: errorMessage(error),
      variant: "destructive",
    });
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

registerFinisher("comment", finishComment);
