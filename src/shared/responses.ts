/**
 * What the API answers, as the browser checks it: the same shapes as the full-zod schemas in
 * schemas.ts, written with `zod/mini` (about 15 kB gzip with zod's core instead of about 26). The
 * browser loads this module with its first request that parses an answer, not with the first
 * screen (`lib/api-client.ts`). responses.test.ts holds each pair to the same type and the same
 * verdicts.
 */
import * as z from "zod/mini";
import {
  COMMENT_STATUSES,
  MEMORY_STATUSES,
  PAGE_SIZE,
  PIPELINE_STAGES,
  SCORE_DIMENSIONS,
} from "./constants";

const int = () => z.int();

export const userResponse = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.nullable(z.string()),
  email: z.nullable(z.string()),
  isPublic: z.boolean(),
});

export const publicProfileResponse = z.extend(z.omit(userResponse, { email: true }), {
  sharedWithYou: z.optional(z.boolean()),
});

const scoresResponse = z.object(
  Object.fromEntries(SCORE_DIMENSIONS.map((d) => [d, z.number()])) as Record<
    (typeof SCORE_DIMENSIONS)[number],
    z.ZodMiniNumber
  >,
);

export const photoResponse = z.object({
  id: z.string(),
  url: z.string(),
  width: int(),
  height: int(),
});
export const photoListResponse = z.object({ photos: z.array(photoResponse) });

export const memoryResponse = z.object({
  id: z.string(),
  user_id: z.nullable(z.string()),
  title: z.string(),
  audioUrl: z.string(),
  transcript: z.string(),
  summary: z.string(),
  scores: scoresResponse,
  duration: z.number(),
  recordedAt: z.string(),
  tags: z.array(z.string()),
  status: z.enum(MEMORY_STATUSES),
  stage: z.nullable(z.enum(PIPELINE_STAGES)),
  error: z.nullable(z.string()),
  createdAt: z.string(),
  question: z.nullable(z.string()),
  language: z.nullable(z.string()),
  photos: z.array(photoResponse),
});

export const memoryPageResponse = z.object({
  items: z.array(memoryResponse),
  total: int(),
  page: int(),
  pageSize: z.literal(PAGE_SIZE),
});

export const memoryYearsResponse = z.object({
  years: z.array(z.object({ year: z.string(), count: int(), page: int() })),
});

export const unclaimedMemoriesResponse = z.object({
  items: z.array(z.extend(memoryResponse, { claimExpiresAt: z.string() })),
});

export const commentResponse = z.object({
  id: z.string(),
  memoryId: z.string(),
  commenterName: z.string(),
  audioUrl: z.string(),
  transcript: z.string(),
  createdAt: z.string(),
  status: z.enum(COMMENT_STATUSES),
  error: z.nullable(z.string()),
});

export const uploadResponse = z.object({ url: z.string(), id: z.string() });

export const appInfoResponse = z.object({ featureRequestContact: z.string() });

const shareLinkShape = {
  id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  visits: int(),
  subscribers: z.array(z.object({ id: z.string(), email: z.string() })),
};
export const shareLinkListResponse = z.array(z.object(shareLinkShape));
export const createdShareLinkResponse = z.object({
  ...shareLinkShape,
  url: z.string(),
  mailed: z.boolean(),
});

export const reminderSettingsResponse = z.object({
  weekly: z.object({
    enabled: z.boolean(),
    weekday: int(),
    hour: int(),
    timeZone: z.string(),
  }),
  specialDays: z.array(z.object({ label: z.string(), month: int(), day: int() })),
  hasEmail: z.boolean(),
  saved: z.boolean(),
  unsubscribedAt: z.nullable(z.string()),
});

export const currentQuestionResponse = z.object({ position: int(), question: z.string() });
export const commentListResponse = z.array(commentResponse);

export const memoryOwnerResponse = z.object({
  owner: z.nullable(z.object({ username: z.string(), displayName: z.nullable(z.string()) })),
});
const segmentsResponse = z.array(
  z.object({ start: z.number(), end: z.number(), text: z.string() }),
);
export const transcriptInfoResponse = z.object({
  engine: z.nullable(z.string()),
  edited: z.boolean(),
  segments: segmentsResponse,
  retranscribe: z.boolean(),
  proposal: z.nullable(
    z.object({ transcript: z.string(), segments: segmentsResponse, engine: z.string() }),
  ),
});

export const countResponse = z.object({ count: int() });
