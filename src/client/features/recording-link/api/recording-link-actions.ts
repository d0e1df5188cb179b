import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createdRecordingLinkSchema } from "../../../../shared/schemas";
import { apiRequest, requestJson, throwIfResNotOk } from "../../../lib/api-client";

const linkPath = (journalId: string, memberId: string) =>
  `/api/journals/${encodeURIComponent(journalId)}/members/${encodeURIComponent(memberId)}`;

/** A change to a member's link shows on the journal's member list (['journals', ...] keys). */
function useInvalidateJournals() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["journals"] });
}

/** POST .../recording-link: a new link, its address shown this once. */
export function useMakeRecordingLink(journalId: string, memberId: string) {
  const invalidate = useInvalidateJournals();
  return useMutation({
    mutationFn: () =>
      requestJson(
        "POST",
        `${linkPath(journalId, memberId)}/recording-link`,
        createdRecordingLinkSchema,
      ),
    onSuccess: invalidate,
  });
}

/** DELETE .../recording-link: the link stops at once. */
export function useStopRecordingLink(journalId: string, memberId: string) {
  const invalidate = useInvalidateJournals();
  return useMutation({
    mutationFn: async () => {
      await apiRequest("DELETE", `${linkPath(journalId, memberId)}/recording-link`);
    },
    onSuccess: invalidate,
  });
}

/** GET .../recording-link: the current link again (read back from its sealed copy). */
export function useShowRecordingLink(journalId: string, memberId: string) {
  return useMutation({
    mutationFn: () =>
      requestJson(
        "GET",
        `${linkPath(journalId, memberId)}/recording-link`,
        createdRecordingLinkSchema,
      ),
  });
}

/** GET .../card.pdf: the fridge card of the current link, saved as a file (the link stays). */
export function usePrintRecordingCard(journalId: string, memberId: string) {
  return useMutation({
    mutationFn: async (filename: string) => {
      const res = await fetch(`${linkPath(journalId, memberId)}/card.pdf`, {
        credentials: "include",
      });
      await throwIfResNotOk(res);
      // One page of a few kilobytes: held in memory, then saved by a link to it.
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement("a");
      link.href = url;
      link.download = filename;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
  });
}
