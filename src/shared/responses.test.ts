import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { z as zm } from "zod/mini";
import * as reminders from "./reminders";
import * as responses from "./responses";
import * as schemas from "./schemas";
import * as shareLinks from "./share-links";
import * as transcript from "./transcript";

const memory: schemas.Memory = {
  id: "m1",
  user_id: "u1",
  title: "The beach",
  audioUrl: "/api/audio/a.mp3",
  transcript: "We went to the beach.",
  summary: "A day at the beach.",
  scores: { meaningfulness: 5, cuteness: 4, excitement: 3, interest: 6, uniqueness: 7, overall: 5 },
  duration: 12,
  recordedAt: "2026-11-26T10:00:00.000Z",
  tags: ["beach"],
  status: "saved",
  stage: null,
  error: null,
  createdAt: "2026-11-26T10:00:00.000Z",
  question: null,
  language: "en",
  photos: [{ id: "p1", url: "/api/photos/p1", width: 1600, height: 1200 }],
};

/** Each browser schema beside the full schema it mirrors, with answers both must judge alike. */
const pairs = [
  {
    mini: responses.memoryPageResponse,
    full: schemas.memoryPageSchema,
    good: { items: [memory], total: 1, page: 1, pageSize: 15 },
    bad: [
      { items: [{ ...memory, status: "lost" }], total: 1, page: 1, pageSize: 15 },
      { items: [memory], total: 1.5, page: 1, pageSize: 15 },
      { items: [{ ...memory, title: null }], total: 1, page: 1, pageSize: 15 },
    ],
  },
  {
    mini: responses.memoryOwnerResponse,
    full: schemas.memoryOwnerSchema,
    good: { owner: { username: "rose", displayName: null } },
    bad: [{ owner: { username: "rose" } }, {}],
  },
  {
    mini: responses.userResponse,
    full: schemas.userSchema,
    good: { id: "u", username: "ann", displayName: null, email: null, isPublic: false },
    bad: [{ id: "u", username: "ann", displayName: null, isPublic: false }],
  },
  {
    mini: responses.commentResponse,
    full: schemas.commentSchema,
    good: {
      id: "c",
      memoryId: "m1",
      commenterName: "Grandma",
      audioUrl: "/a.mp3",
      transcript: "",
      createdAt: "x",
      status: "processing",
      error: null,
    },
    bad: [{ id: "c" }],
  },
  {
    mini: responses.createdShareLinkResponse,
    full: shareLinks.createdShareLinkSchema,
    good: {
      id: "s",
      label: "Gran",
      createdAt: "x",
      lastUsedAt: null,
      visits: 0,
      url: "u",
      mailed: false,
      subscribers: [{ id: "n1", email: "may@example.org" }],
    },
    bad: [
      { id: "s", label: "Gran", createdAt: "x", lastUsedAt: null, visits: 0, mailed: false },
      {
        id: "s",
        label: "Gran",
        createdAt: "x",
        lastUsedAt: null,
        visits: 0,
        url: "u",
        mailed: false,
        subscribers: [{ id: "n1" }],
      },
    ],
  },
  {
    mini: responses.currentQuestionResponse,
    full: reminders.currentQuestionSchema,
    good: { position: 3, question: "What was your first job?" },
    bad: [{ position: "3", question: "?" }],
  },
  {
    mini: responses.transcriptInfoResponse,
    full: transcript.transcriptInfoSchema,
    good: {
      engine: "whisper.cpp:base",
      edited: false,
      segments: [{ start: 0, end: 1.5, text: "We went to the beach." }],
      retranscribe: false,
      proposal: {
        transcript: "We went to the beach.",
        segments: [{ start: 0, end: 1.5, text: "We went to the beach." }],
        engine: "whisper.cpp ggml-base.bin",
      },
    },
    bad: [
      {
        engine: null,
        edited: false,
        segments: [{ start: 0, text: "x" }],
        retranscribe: false,
        proposal: null,
      },
      { engine: null, edited: false, segments: [], proposal: null },
      { engine: null, edited: true, segments: [], retranscribe: false, proposal: { text: "x" } },
    ],
  },
];

describe("the browser's response schemas", () => {
  it.each(pairs.map((p, i) => [i, p] as const))(
    "judge answers as the full schemas do (%i)",
    (_, p) => {
      expect(p.mini.safeParse(p.good).success).toBe(true);
      expect(p.full.safeParse(p.good).success).toBe(true);
      for (const bad of p.bad) {
        expect(p.mini.safeParse(bad).success).toBe(false);
        expect(p.full.safeParse(bad).success).toBe(false);
      }
    },
  );

  it("parse to the shared types", () => {
    expectTypeOf<zm.infer<typeof responses.userResponse>>().toEqualTypeOf<schemas.User>();
    expectTypeOf<
      zm.infer<typeof responses.publicProfileResponse>
    >().toEqualTypeOf<schemas.PublicProfile>();
    expectTypeOf<
      zm.infer<typeof responses.memoryPageResponse>
    >().toEqualTypeOf<schemas.MemoryPage>();
    expectTypeOf<
      zm.infer<typeof responses.memoryYearsResponse>
    >().toEqualTypeOf<schemas.MemoryYears>();
    expectTypeOf<
      zm.infer<typeof responses.unclaimedMemoriesResponse>
    >().toEqualTypeOf<schemas.UnclaimedMemories>();
    expectTypeOf<
      zm.infer<typeof responses.memoryOwnerResponse>
    >().toEqualTypeOf<schemas.MemoryOwner>();
    expectTypeOf<zm.infer<typeof responses.commentResponse>>().toEqualTypeOf<schemas.Comment>();
    expectTypeOf<
      zm.infer<typeof responses.transcriptInfoResponse>
    >().toEqualTypeOf<transcript.TranscriptInfo>();
    expectTypeOf<
      zm.infer<typeof responses.uploadResponse>
    >().toEqualTypeOf<schemas.UploadResponse>();
    expectTypeOf<zm.infer<typeof responses.appInfoResponse>>().toEqualTypeOf<schemas.AppInfo>();
    expectTypeOf<zm.infer<typeof responses.shareLinkListResponse>>().toEqualTypeOf<
      z.infer<typeof shareLinks.shareLinkListSchema>
    >();
    expectTypeOf<
      zm.infer<typeof responses.createdShareLinkResponse>
    >().toEqualTypeOf<shareLinks.CreatedShareLink>();
    expectTypeOf<
      zm.infer<typeof responses.reminderSettingsResponse>
    >().toEqualTypeOf<reminders.ReminderSettings>();
    expectTypeOf<
      zm.infer<typeof responses.currentQuestionResponse>
    >().toEqualTypeOf<reminders.CurrentQuestion>();
  });
});
