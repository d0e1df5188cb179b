import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  type LinkStory,
  linkStorySchema,
  okResponseSchema,
  recordingPageSchema,
} from "../../../../shared/schemas";
import { getJson, requestJson } from "../../../lib/api-client";

/** The API paths of one recording link (its token is the whole credential). */
export const recordPath = (token: string) => `/api/record/${encodeURIComponent(token)}`;

export const recordingPageKeys = {
  all: ["recording-link"] as const,
  page: (token: string, page: number, q?: string) =>
    ["recording-link", token, { page, q: q ?? null }] as const,
};

/**
 * GET /api/record/{token}: the journal's and storyteller's names, the question (`q`, the one the
 * weekly mail's button opened the page with, when the server still asks it), their stories.
 */
export function recordingPageQueryOptions(token: string, page: number, q?: string) {
  const asked = q ? `&q=${encodeURIComponent(q)}` : "";
  return queryOptions({
    queryKey: recordingPageKeys.page(token, page, q),
    queryFn: () => getJson(`${recordPath(token)}?page=${page}${asked}`, recordingPageSchema),
  });
}

export function useRecordingPage(token: string, page: number, q?: string) {
  return useQuery(recordingPageQueryOptions(token, page, q));
}

/** PUT /api/record/{token}/question-mail: the storyteller stops, or asks again for, the mails. */
export async function chooseQuestionMail(token: string, stopped: boolean): Promise<void> {
  await requestJson("PUT", `${recordPath(token)}/question-mail`, okResponseSchema, { stopped });
}

/** POST /api/record/{token}/memories: a story of a recording this browser uploaded. */
export function recordThroughLink(
  token: string,
  body: { audioUrl: string; recordedAt: string; question?: string },
): Promise<LinkStory> {
  return requestJson("POST", `${recordPath(token)}/memories`, linkStorySchema, body);
}

/** GET /api/record/{token}/memories/{id}: polled while the story is processed. */
export function fetchStory(token: string, id: string): Promise<LinkStory> {
  return getJson(`${recordPath(token)}/memories/${encodeURIComponent(id)}`, linkStorySchema);
}
