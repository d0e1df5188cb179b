import { failedSaveMemoryDescription, MESSAGES } from "../../../../shared/messages";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";
import { registerFinisher } from "../../recorder/pending-uploads";
import { announceMemoryFailed, announceMemorySaved } from "./memory-saved-events";
import { ProcessingFailedError, runMemoryProcessing } from "./run-processing";

/** The question the home page's recorder passed along (kept with the recording in the browser). */
function questionOf(meta: unknown): string | undefined {
  const question = (meta as { question?: unknown } | null)?.question;
  return typeof question === "string" && question ? question : undefined;
}

/**
 * What happens to a recorded memory after its upload: the server processes it while the recorder
 * shows each stage's notice; then the app celebrates (see MemorySavedEffects). Registered when
 * this module loads (app.tsx imports it) so recordings kept from an earlier visit finish too.
 */
registerFinisher("memory", async (upload, report) => {
  try {
    const memory = await runMemoryProcessing(
      { ...upload, question: questionOf(upload.meta) },
      report,
    );
    announceMemorySaved(memory);
    return memory;
  } catch (error) {
    if (error instanceof ProcessingFailedError) {
      toast({
        title: MESSAGES.processingFailed,
        description: error.message,
        variant: "destructive",
      });
      // The server keeps the recording and the failed memory (the owner retries it from the
      // list): nothing is left for the browser to keep.
      announceMemoryFailed(error.memory);
      return error.memory;
    }
    toast({
      title: MESSAGES.failedSaveMemory,
      description: failedSaveMemoryDescription(errorMessage(error)),
      variant: "destructive",
    });
    throw error;
  }
});
