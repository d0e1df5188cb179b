import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Memory, memorySchema } from "../../../../shared/schemas";
import { retranscribeCountSchema, transcriptInfoSchema } from "../../../../shared/transcript";
import { apiRequest, getJson, requestJson } from "../../../lib/api-client";
import { memoryKeys, memoryUrl } from "../../memories/api/memory-keys";

/** The captions file of a memory, for the audio player's track. */
export const captionsUrl = (id: string) => `${memoryUrl(id)}/captions.vtt`;

/** GET /api/memories/{id}/transcript: its timed segments and whether it can be made better. */
export const transcriptQueryOptions = (id: string) =>
  queryOptions({
    queryKey: memoryKeys.transcript(id),
    queryFn: () => getJson(`${memoryUrl(id)}/transcript`, transcriptInfoSchema),
  });

export function useTranscript(id: string, enabled = true) {
  return useQuery({ ...transcriptQueryOptions(id), enabled });
}

/** POST /api/memories/{id}/retranscribe: the memory, back in processing at transcription. */
export function retranscribeMemory(id: string): Promise<Memory> {
  return requestJson("POST", `${memoryUrl(id)}/retranscribe`, memorySchema);
}

/** POST .../proposed-transcript/accept: the new transcription replaces the owner's edit. */
export function acceptProposedTranscript(id: string): Promise<Memory> {
  return requestJson("POST", `${memoryUrl(id)}/proposed-transcript/accept`, memorySchema);
}

/** POST .../proposed-transcript/dismiss: the owner keeps their transcript. */
export async function dismissProposedTranscript(id: string): Promise<void> {
  await apiRequest("POST", `${memoryUrl(id)}/proposed-transcript/dismiss`);
}

const RETRANSCRIBE_URL = "/api/memories/retranscribe";

/**
 * GET /api/memories/retranscribe: how many of your memories a better engine could transcribe, and
 * whether the speech model is missing (only the rough fallback transcribes).
 */
export const retranscribableQueryOptions = () =>
  queryOptions({
    queryKey: memoryKeys.retranscribable(),
    queryFn: () => getJson(RETRANSCRIBE_URL, retranscribeCountSchema),
  });

/** POST /api/memories/retranscribe: queues all of them; how many were. */
export async function retranscribeAll(): Promise<number> {
  return (await requestJson("POST", RETRANSCRIBE_URL, retranscribeCountSchema)).count;
}
