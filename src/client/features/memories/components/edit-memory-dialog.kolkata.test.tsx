import { vi } from "vitest";

// Before anything reads the clock: this file runs in Kolkata (UTC+5:30, no daylight saving).
vi.hoisted(() => {
  process.env.TZ = "Asia/Kolkata";
});

import { describe } from "vitest";
import { dateRoundTripTests } from "./edit-memory-dialog.tz";

describe("Edit Memory date in Asia/Kolkata", () => {
  dateRoundTripTests("Asia/Kolkata", -330, [
    {
      recordedAt: "2024-06-01T12:30:00.000Z",
      shown: "2024-06-01T18:00",
      typed: "2024-06-01T05:29",
      saved: "2024-05-31T23:59:00.000Z",
    },
    {
      recordedAt: "2023-12-31T20:00:00.000Z",
      shown: "2024-01-01T01:30",
      typed: "2023-12-31T23:45",
      saved: "2023-12-31T18:15:00.000Z",
    },
  ]);
});
