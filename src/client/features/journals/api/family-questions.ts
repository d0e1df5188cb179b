import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { familyQuestionListSchema, familyQuestionSchema } from "../../../../shared/schemas";
import { apiRequest, getJson, requestJson } from "../../../lib/api-client";
import { journalKeys, membersUrl } from "./journal-keys";

const questionsUrl = (journalId: string, memberId: string) =>
  `${membersUrl(journalId, memberId)}/questions`;
const questionsKey = (journalId: string, memberId: string) =>
  [...journalKeys.members(journalId), memberId, "questions"] as const;

/** GET .../members/{memberId}/questions: what the family asked a storyteller, waiting ones first. */
export function useFamilyQuestions(journalId: string, memberId: string) {
  return useQuery({
    queryKey: questionsKey(journalId, memberId),
    queryFn: () => getJson(questionsUrl(journalId, memberId), familyQuestionListSchema),
  });
}

/** POST .../questions (organizers and relatives): the storyteller's page asks it next. */
export function useAskQuestion(journalId: string, memberId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      requestJson("POST", questionsUrl(journalId, memberId), familyQuestionSchema, { text }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: questionsKey(journalId, memberId) }),
  });
}

/** DELETE .../questions/{id} (an organizer, or whoever asked it). */
export function useRemoveQuestion(journalId: string, memberId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (questionId: string) => {
      await apiRequest(
        "DELETE",
        `${questionsUrl(journalId, memberId)}/${encodeURIComponent(questionId)}`,
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: questionsKey(journalId, memberId) }),
  });
}

/** PATCH .../questions/{id} (organizers): moves a waiting question; the first is asked next. */
export function useMoveQuestion(journalId: string, memberId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ questionId, position }: { questionId: string; position: number }) =>
      requestJson(
        "PATCH",
        `${questionsUrl(journalId, memberId)}/${encodeURIComponent(questionId)}`,
        familyQuestionListSchema,
        { position },
      ),
    onSuccess: (list) => queryClient.setQueryData(questionsKey(journalId, memberId), list),
  });
}
