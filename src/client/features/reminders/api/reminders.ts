import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CURRENT_QUESTION_SCRIPT_ID } from "../../../../shared/constants";
import {
  type CurrentQuestion,
  currentQuestionSchema,
  type ReminderSettingsBody,
  reminderSettingsSchema,
} from "../../../../shared/reminders";
import { apiRequest, getJson, requestJson } from "../../../lib/api-client";

export const REMINDERS_PATH = "/api/reminders";
export const QUESTION_PATH = "/api/question";

export const reminderKeys = { settings: ["reminders"] as const, question: ["question"] as const };

/** GET /api/reminders: the logged-in user's reminder settings. */
export const remindersQueryOptions = () =>
  queryOptions({
    queryKey: reminderKeys.settings,
    queryFn: () => getJson(REMINDERS_PATH, reminderSettingsSchema),
  });

export function useReminders(enabled = true) {
  return useQuery({ ...remindersQueryOptions(), enabled });
}

/** PUT /api/reminders. */
export function useSaveReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReminderSettingsBody) =>
      requestJson("PUT", REMINDERS_PATH, reminderSettingsSchema, body),
    onSuccess: (settings) => queryClient.setQueryData(reminderKeys.settings, settings),
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
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** GET /api/question: the logged-in user's current question (first from the page, if it has it). */
export const currentQuestionQueryOptions = () =>
  queryOptions({
    queryKey: reminderKeys.question,
    queryFn: () => getJson(QUESTION_PATH, currentQuestionSchema),
    initialData: takeEmbeddedQuestion,
  });

export function useCurrentQuestion(enabled: boolean) {
  return useQuery({ ...currentQuestionQueryOptions(), enabled });
}

/** POST /api/question/next: skip (or answered); moves on from `position` once. */
export function useNextQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (position: number) =>
      requestJson("POST", `${QUESTION_PATH}/next`, currentQuestionSchema, { position }),
    onSuccess: (next) => queryClient.setQueryData(reminderKeys.question, next),
  });
}

/** POST /api/reminders/unsubscribe with the link's signed parameters (no login needed). */
export async function unsubscribe(userId: string, token: string): Promise<void> {
  const query = new URLSearchParams({ u: userId, t: token });
  await apiRequest("POST", `${REMINDERS_PATH}/unsubscribe?${query}`);
}
