import { queryOptions, useQuery } from "@tanstack/react-query";
import { PHOTO_FIELD } from "../../../../shared/photos";
import {
  type LinkStory,
  linkReplyListSchema,
  linkStorySchema,
  okResponseSchema,
  type Photo,
  photoSchema,
  recordingPageSchema,
} from "../../../../shared/schemas";
import { apiRequest, getJson, requestJson, sendParsed } from "../../../lib/api-client";

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

/** PUT /api/record/{token}/language: the language the storyteller's page speaks from now on. */
export async function chooseLinkLanguage(token: string, language: string): Promise<void> {
  await requestJson("PUT", `${recordPath(token)}/language`, okResponseSchema, { language });
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

export const linkRepliesKeys = {
  story: (token: string, id: string) => ["recording-link", token, "replies", id] as const,
};

/** GET /api/record/{token}/memories/{id}/replies: a story's replies, played under the link's path. */
export function linkRepliesQueryOptions(token: string, id: string) {
  return queryOptions({
    queryKey: linkRepliesKeys.story(token, id),
    queryFn: () =>
      getJson(
        `${recordPath(token)}/memories/${encodeURIComponent(id)}/replies`,
        linkReplyListSchema,
      ),
  });
}

/** POST /api/record/{token}/memories/{id}/replies/seen: the storyteller opened them. */
export async function markLinkRepliesSeen(token: string, id: string): Promise<void> {
  await apiRequest("POST", `${recordPath(token)}/memories/${encodeURIComponent(id)}/replies/seen`);
}

/** POST /api/record/{token}/memories/{id}/photos: the photo the story was started from. */
export function addPhotoThroughLink(token: string, id: string, file: Blob): Promise<Photo> {
  const form = new FormData();
  form.append(PHOTO_FIELD, file);
  const url = `${recordPath(token)}/memories/${encodeURIComponent(id)}/photos`;
  return sendParsed(() => fetch(url, { method: "POST", body: form }), photoSchema);
}
