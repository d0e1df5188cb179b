import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type JournalUpdateBody, journalSchema } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { journalKeys, journalUrl } from "./journal-keys";

/** PATCH /api/journals/{id} (organizer): renames it; every list of journals follows. */
export function useRenameJournal(journalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: JournalUpdateBody) =>
      requestJson("PATCH", journalUrl(journalId), journalSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: journalKeys.all }),
  });
}
