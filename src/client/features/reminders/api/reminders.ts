import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CURRENT_QUESTION_SCRIPT_ID } from "../../../../shared/constants";
import type {
  CurrentQuestion,
  ReminderSettings,
  ReminderSettingsBody,
} from "../../../../shared/reminders";
import { apiRequest } from "../../../lib/api-client";

export const REMINDERS_PATH = "/api/reminders";
export const QUESTION_PATH = "/api/question";

/** GET /api/reminders: the logged-in user's reminder settings. */
export const remindersQueryOptions = () =>
  queryOptions<ReminderSettings>({ queryKey: [REMINDERS_PATH] });

export function useReminders(enabled = true) {
  return useQuery({ ...remindersQueryOptions(), enabled });
}

/** PUT /api/reminders. */
export function useSaveReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReminderSettingsBody) => {
      const res = await apiRequest("PUT", REMINDERS_PATH, body);
      return (await res.json()) as ReminderSettings;
    },
    onSuccess: (settings) => queryClient.setQueryData([REMINDERS_PATH], settings),
  });
}

/**
 * The current question the server embedded in the home page it served to the logged-in user, or
 * undefined (then GET /api/question is asked). Taken once and removed: a query made again later
 * (after a logout and another login) must not start from the first user's question.
 */
export function takeEmbeddedQuestion(): CurrentQuestion | undefined {
  const element = document.getElementById(CURRENT_QUESTION_SCRIPT_ID);
  const text = element?.textContent;
  element?.remove();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as CurrentQuestion;
  } catch {
    return undefined;
  }
}

/** GET /api/question: the logged-in user's current question (first from the page, if it has it). */
export const currentQuestionQueryOptions = () =>
  queryOptions<CurrentQuestion>({ queryKey: [QUESTION_PATH], initialData: takeEmbeddedQuestion });

export function useCurrentQuestion(enabled: boolean) {
  return useQuery({ ...currentQuestionQueryOptions(), enabled });
}

/** POST /api/question/next: skip (or answered); moves on from `position` once. */
export function useNextQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (position: number) => {
      const res = await apiRequest("POST", `${QUESTION_PATH}/next`, { position });
      return (await res.json()) as CurrentQuestion;
    },
    onSuccess: (next) => queryClient.setQueryData([QUESTION_PATH], next),
  });
}

/** POST /api/reminders/unsubscribe with the link's signed parameters (no login needed). */
export async function unsubscribe(userId: string, token: string): Promise<void> {
  const query = new URLSearchParams({ u: userId, t: token });
  await apiRequest("POST", `${REMINDERS_PATH}/unsubscribe?${query}`);
}
