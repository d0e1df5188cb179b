import { queryOptions, useQuery } from "@tanstack/react-query";
import { type LinkStory, linkStorySchema, recordingPageSchema } from "../../../../shared/schemas";
import { getJson, requestJson } from "../../../lib/api-client";

/** The API paths of one recording link (its token is the whole credential). */
export const recordPath = (token: string) => `/api/record/${encodeURIComponent(token)}`;

export const recordingPageKeys = {
  all: ["recording-link"] as const,
  page: (token: string, page: number) => ["recording-link", token, { page }] as const,
};

/** GET /api/record/{token}: the journal's and storyteller's names, the week's question, their stories. */
export function recordingPageQueryOptions(token: string, page: number) {
  return queryOptions({
    queryKey: recordingPageKeys.page(token, page),
    queryFn: () => getJson(`${recordPath(token)}?page=${page}`, recordingPageSchema),
  });
}

export function useRecordingPage(token: string, page: number) {
  return useQuery(recordingPageQueryOptions(token, page));
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
